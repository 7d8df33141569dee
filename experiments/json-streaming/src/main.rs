//! serde_json and I/O: writing 1000 orders straight to a file through
//! `to_writer` vs `to_vec` then `write_all`; reading them back with
//! `from_reader` vs read-all then `from_slice`; `StreamDeserializer` over a
//! stream of orders vs one big array; and `RawValue` to defer the parts of an
//! order you don't need yet. Allocations, peak live heap, syscalls, time.

use harness::alloc::{AllocStats, CountingAlloc, measure};
use harness::fmt::{Table, bytes, duration};
use harness::{Config, Results, Summary, bench_with, compare_with, time_each_with};
use orders::{Customer, LineItem, Order, Status};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Orders written and read in every scenario.
const N: usize = 1000;
const SEED: u64 = 7;

/// Counts the `write` / `read` calls that reach the wrapped file: each is
/// one system call.
struct Syscalls<T> {
    inner: T,
    calls: u64,
}

impl<T> Syscalls<T> {
    fn new(inner: T) -> Syscalls<T> {
        Syscalls { inner, calls: 0 }
    }
}

impl<T: Write> Write for Syscalls<T> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.calls += 1;
        self.inner.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<T: Read> Read for Syscalls<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        self.inner.read(buf)
    }
}

// ---------------------------------------------------------------- writing

// ANCHOR: write_to_vec
/// Encode each order into its own `Vec`, then hand it to the file.
fn write_to_vec(orders: &[Order], file: &mut impl Write) -> io::Result<()> {
    for o in orders {
        let mut line = serde_json::to_vec(o)?;
        line.push(b'\n');
        file.write_all(&line)?;
    }
    Ok(())
}
// ANCHOR_END: write_to_vec

// ANCHOR: write_to_writer
/// Encode straight into a `BufWriter`: one 8 KiB buffer for the whole run.
fn write_to_writer(orders: &[Order], file: &mut impl Write) -> io::Result<()> {
    let mut w = BufWriter::new(file);
    for o in orders {
        serde_json::to_writer(&mut w, o)?;
        w.write_all(b"\n")?;
    }
    w.flush()
}
// ANCHOR_END: write_to_writer

// ANCHOR: write_unbuffered
/// The trap: `to_writer` on the file itself. serde_json writes each
/// punctuation mark, key and value separately: one system call each.
fn write_unbuffered(orders: &[Order], file: &mut impl Write) -> io::Result<()> {
    for o in orders {
        serde_json::to_writer(&mut *file, o)?;
        file.write_all(b"\n")?;
    }
    Ok(())
}
// ANCHOR_END: write_unbuffered

/// Everything into one `Vec` in memory, then one `write_all`.
fn write_all_at_once(orders: &[Order], file: &mut impl Write) -> io::Result<()> {
    let mut doc = Vec::new();
    for o in orders {
        serde_json::to_writer(&mut doc, o)?;
        doc.push(b'\n');
    }
    file.write_all(&doc)
}

type Writer = fn(&[Order], &mut Syscalls<File>) -> io::Result<()>;

// ---------------------------------------------------------------- reading

/// What every reader computes: the number of orders and the sum of totals.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Tally {
    orders: u64,
    total_cents: i64,
}

impl Tally {
    fn add(&mut self, o: &Order) {
        self.orders += 1;
        self.total_cents += o.total_cents;
    }
}

// ANCHOR: read_array
/// One big JSON array: read the file, decode the whole `Vec<Order>`.
fn read_array_slice(path: &Path) -> io::Result<Tally> {
    let bytes = std::fs::read(path)?;
    let all: Vec<Order> = serde_json::from_slice(&bytes)?;
    let mut t = Tally::default();
    all.iter().for_each(|o| t.add(o));
    Ok(t)
}

/// The same array decoded from a buffered reader: no copy of the file.
fn read_array_reader(path: &Path) -> io::Result<Tally> {
    let file = BufReader::new(File::open(path)?);
    let all: Vec<Order> = serde_json::from_reader(file)?;
    let mut t = Tally::default();
    all.iter().for_each(|o| t.add(o));
    Ok(t)
}
// ANCHOR_END: read_array

// ANCHOR: read_stream
/// One order per line (or simply one after another): `StreamDeserializer`
/// yields them one at a time; each is dropped before the next is decoded.
fn read_stream_reader(path: &Path) -> io::Result<Tally> {
    let file = BufReader::new(File::open(path)?);
    let mut t = Tally::default();
    for o in serde_json::Deserializer::from_reader(file).into_iter::<Order>() {
        t.add(&o?);
    }
    Ok(t)
}

/// The same stream from the whole file in memory.
fn read_stream_slice(path: &Path) -> io::Result<Tally> {
    let bytes = std::fs::read(path)?;
    let mut t = Tally::default();
    for o in serde_json::Deserializer::from_slice(&bytes).into_iter::<Order>() {
        t.add(&o?);
    }
    Ok(t)
}
// ANCHOR_END: read_stream

/// `from_reader` on the bare `File`: serde_json reads one byte at a time.
fn read_array_unbuffered(path: &Path) -> io::Result<(Tally, u64)> {
    let mut file = Syscalls::new(File::open(path)?);
    let all: Vec<Order> = serde_json::from_reader(&mut file)?;
    let mut t = Tally::default();
    all.iter().for_each(|o| t.add(o));
    Ok((t, file.calls))
}

/// Counts read syscalls of a reader scenario by wrapping the file.
fn read_syscalls(path: &Path, stream: bool) -> io::Result<u64> {
    let mut file = Syscalls::new(File::open(path)?);
    if stream {
        let r = BufReader::new(&mut file);
        for o in serde_json::Deserializer::from_reader(r).into_iter::<Order>() {
            o?;
        }
    } else {
        let _: Vec<Order> = serde_json::from_reader(BufReader::new(&mut file))?;
    }
    Ok(file.calls)
}

// ---------------------------------------------------------------- deferring

// ANCHOR: heads
/// Only the outer fields; serde skips the others without allocating.
#[derive(Debug, Deserialize)]
struct Head {
    id: u64,
    status: Status,
    total_cents: i64,
}

/// The outer fields, and the rest kept as raw JSON text borrowed from the
/// input: decode it later, or forward it as is.
#[derive(Debug, Deserialize)]
struct HeadRaw<'a> {
    id: u64,
    status: Status,
    total_cents: i64,
    #[serde(borrow)]
    customer: &'a RawValue,
    #[serde(borrow)]
    items: &'a RawValue,
}

/// The same with owned raw values: works with `from_reader`, but each
/// `Box<RawValue>` is a copy of its JSON text.
#[derive(Debug, Deserialize)]
struct HeadBoxed {
    id: u64,
    status: Status,
    total_cents: i64,
    customer: Box<RawValue>,
    items: Box<RawValue>,
}
// ANCHOR_END: heads

// ---------------------------------------------------------------- results

/// One measured scenario.
#[derive(Debug, Clone, Serialize)]
struct Row {
    key: &'static str,
    op: &'static str,
    allocs: u64,
    reallocs: u64,
    calls: u64,
    bytes: u64,
    peak: u64,
    syscalls: u64,
    time: Summary,
    calls_per_order: f64,
    /// Labels for the article's tables (`vi`, `en`) and charts (`short_*`).
    vi: &'static str,
    en: &'static str,
    short_vi: &'static str,
    short_en: &'static str,
}

/// (key, vi, en, short vi, short en)
const LABELS: [(&str, &str, &str, &str, &str); 14] = [
    (
        "to_vec",
        "to_vec + write_all",
        "to_vec + write_all",
        "to_vec",
        "to_vec",
    ),
    (
        "to_writer",
        "to_writer(BufWriter)",
        "to_writer(BufWriter)",
        "BufWriter",
        "BufWriter",
    ),
    (
        "all_at_once",
        "to_writer(Vec) + một write_all",
        "to_writer(Vec) + one write_all",
        "gom hết",
        "all at once",
    ),
    (
        "unbuffered",
        "to_writer(File), không bộ đệm",
        "to_writer(File), unbuffered",
        "File trần",
        "bare File",
    ),
    (
        "array_slice",
        "mảng: fs::read + from_slice",
        "array: fs::read + from_slice",
        "mảng, slice",
        "array, slice",
    ),
    (
        "array_reader",
        "mảng: from_reader(BufReader)",
        "array: from_reader(BufReader)",
        "mảng, reader",
        "array, reader",
    ),
    (
        "stream_slice",
        "luồng: fs::read + from_slice",
        "stream: fs::read + from_slice",
        "luồng, slice",
        "stream, slice",
    ),
    (
        "stream_reader",
        "luồng: from_reader(BufReader)",
        "stream: from_reader(BufReader)",
        "luồng, reader",
        "stream, reader",
    ),
    (
        "array_unbuffered",
        "mảng: from_reader(File), không bộ đệm",
        "array: from_reader(File), unbuffered",
        "File trần",
        "bare File",
    ),
    ("full", "Vec<Order>", "Vec<Order>", "Order", "Order"),
    (
        "head",
        "Vec<Head> (bỏ qua phần còn lại)",
        "Vec<Head> (rest skipped)",
        "Head",
        "Head",
    ),
    (
        "raw",
        "Vec<HeadRaw> (&RawValue)",
        "Vec<HeadRaw> (&RawValue)",
        "&RawValue",
        "&RawValue",
    ),
    (
        "boxed",
        "Vec<HeadBoxed> (Box<RawValue>)",
        "Vec<HeadBoxed> (Box<RawValue>)",
        "Box<RawValue>",
        "Box<RawValue>",
    ),
    ("value", "Value", "Value", "Value", "Value"),
];

fn row(key: &'static str, op: &'static str, a: AllocStats, syscalls: u64, time: Summary) -> Row {
    let label = LABELS.iter().find(|l| l.0 == key).expect("a label per row");
    Row {
        key,
        op,
        allocs: a.allocs,
        reallocs: a.reallocs,
        calls: a.calls(),
        bytes: a.bytes,
        peak: a.peak,
        syscalls,
        time,
        calls_per_order: a.calls() as f64 / N as f64,
        vi: label.1,
        en: label.2,
        short_vi: label.3,
        short_en: label.4,
    }
}

fn config() -> Config {
    Config::default()
        .samples(harness::pick(41, 21))
        .max_time(Duration::from_millis(harness::pick(1500, 600)))
}

fn print_rows(title: &str, rows: &[Row], show_syscalls: bool) {
    println!("{title}");
    let mut head = vec![
        "operation",
        "allocs",
        "reallocs",
        "bytes asked",
        "peak heap",
    ];
    if show_syscalls {
        head.push("syscalls");
    }
    head.push("median time");
    let mut t = Table::new(head);
    for r in rows {
        let mut cells = vec![
            r.op.to_string(),
            r.allocs.to_string(),
            r.reallocs.to_string(),
            bytes(r.bytes as f64),
            bytes(r.peak as f64),
        ];
        if show_syscalls {
            cells.push(r.syscalls.to_string());
        }
        cells.push(duration(r.time.median));
        t.row(cells);
    }
    println!("{t}");
}

/// A temp folder for the files, removed on drop (even on panic).
struct Files {
    _dir: tempfile::TempDir,
    ndjson: PathBuf,
    array: PathBuf,
    scratch: PathBuf,
}

fn files(orders: &[Order]) -> Files {
    let dir = tempfile::tempdir().expect("temp dir");
    let ndjson = dir.path().join("orders.ndjson");
    let array = dir.path().join("orders.json");
    let scratch = dir.path().join("out.ndjson");
    let mut f = File::create(&ndjson).unwrap();
    write_to_writer(orders, &mut f).unwrap();
    std::fs::write(&array, serde_json::to_vec(orders).unwrap()).unwrap();
    Files {
        _dir: dir,
        ndjson,
        array,
        scratch,
    }
}

fn writing(orders: &[Order], files: &Files, results: &mut Results) -> Vec<Row> {
    let expected = std::fs::read(&files.ndjson).unwrap();
    let mut file = Syscalls::new(
        File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&files.scratch)
            .unwrap(),
    );
    let rewind = |f: &mut Syscalls<File>| {
        f.inner.set_len(0).unwrap();
        f.inner.seek(SeekFrom::Start(0)).unwrap();
        f.calls = 0;
    };
    let scenarios: [(&str, &str, Writer); 4] = [
        ("to_vec", "to_vec + write_all", |o, f| write_to_vec(o, f)),
        ("to_writer", "to_writer(BufWriter)", |o, f| {
            write_to_writer(o, f)
        }),
        ("all_at_once", "to_writer(Vec) + 1 write_all", |o, f| {
            write_all_at_once(o, f)
        }),
        ("unbuffered", "to_writer(File), unbuffered", |o, f| {
            write_unbuffered(o, f)
        }),
    ];
    // Allocations and syscalls: one run each, checking the file's bytes.
    let mut counted = Vec::new();
    for (_, _, write) in scenarios {
        rewind(&mut file);
        let (r, a) = measure(|| write(orders, &mut file));
        r.unwrap();
        counted.push((a, file.calls));
        assert_eq!(std::fs::read(&files.scratch).unwrap(), expected);
    }
    // Time: the two usual routes interleaved, the others on their own.
    let file = &std::cell::RefCell::new(file);
    let timed = |write: Writer| {
        move || {
            let mut f = file.borrow_mut();
            rewind(&mut f);
            write(orders, &mut f).unwrap()
        }
    };
    let pair = compare_with(config(), timed(scenarios[0].2), timed(scenarios[1].2));
    let all = bench_with(config(), timed(scenarios[2].2));
    // ~ one syscall per token: slow, so a few individually timed runs
    let unbuffered = time_each_with(
        config().warmup_events(1),
        harness::pick(5, 2),
        timed(scenarios[3].2),
    );
    results.set("write.compare", &pair);
    let times = [pair.a.clone(), pair.b.clone(), all, unbuffered];
    let rows: Vec<Row> = scenarios
        .iter()
        .zip(counted)
        .zip(times)
        .map(|(((key, op, _), (a, sys)), t)| row(key, op, a, sys, t))
        .collect();
    for r in &rows {
        results.set(&format!("write.{}", r.key), r);
    }
    results.set("write.rows", &rows);
    rows
}

fn reading(files: &Files, expected: Tally, results: &mut Results) -> Vec<Row> {
    type Reader = fn(&Path) -> io::Result<Tally>;
    let scenarios: [(&str, &str, Reader, &Path, Option<bool>); 4] = [
        (
            "array_slice",
            "array: fs::read + from_slice",
            read_array_slice,
            &files.array,
            None,
        ),
        (
            "array_reader",
            "array: from_reader(BufReader)",
            read_array_reader,
            &files.array,
            Some(false),
        ),
        (
            "stream_slice",
            "stream: fs::read + from_slice",
            read_stream_slice,
            &files.ndjson,
            None,
        ),
        (
            "stream_reader",
            "stream: from_reader(BufReader)",
            read_stream_reader,
            &files.ndjson,
            Some(true),
        ),
    ];
    let mut counted = Vec::new();
    for (_, _, read, path, stream) in scenarios {
        let (t, a) = measure(|| read(path).unwrap());
        assert_eq!(t, expected);
        let syscalls = match stream {
            Some(s) => read_syscalls(path, s).unwrap(),
            // fs::read: sizes its buffer from the file's length first
            None => {
                let len = std::fs::metadata(path).unwrap().len() as usize;
                let mut f = Syscalls::new(File::open(path).unwrap());
                let mut v = Vec::with_capacity(len);
                f.read_to_end(&mut v).unwrap();
                f.calls
            }
        };
        counted.push((a, syscalls));
    }
    let timed = |i: usize| {
        let (read, path) = (scenarios[i].2, scenarios[i].3);
        move || read(path).unwrap()
    };
    let array = compare_with(config(), timed(1), timed(0));
    let stream = compare_with(config(), timed(3), timed(2));
    results.set("read.compare_array", &array);
    results.set("read.compare_stream", &stream);
    let times = [array.b, array.a, stream.b, stream.a];
    let mut rows: Vec<Row> = scenarios
        .iter()
        .zip(counted)
        .zip(times)
        .map(|(((key, op, ..), (a, sys)), t)| row(key, op, a, sys, t))
        .collect();
    // The trap: from_reader on the bare file.
    let ((t, syscalls), a) = measure(|| read_array_unbuffered(&files.array).unwrap());
    assert_eq!(t, expected);
    let time = time_each_with(config().warmup_events(0), harness::pick(3, 1), || {
        read_array_unbuffered(&files.array).unwrap()
    });
    rows.push(row(
        "array_unbuffered",
        "array: from_reader(File), unbuffered",
        a,
        syscalls,
        time,
    ));
    for r in &rows {
        results.set(&format!("read.{}", r.key), r);
    }
    results.set("read.rows", &rows);
    rows
}

/// from_reader vs from_slice on the same bytes in memory: the parser alone.
fn parser_only(files: &Files, results: &mut Results) -> harness::Comparison {
    let bytes = std::fs::read(&files.array).unwrap();
    // ANCHOR: parser_only
    let c = compare_with(
        config(),
        || serde_json::from_reader::<_, Vec<Order>>(&bytes[..]).unwrap(),
        || serde_json::from_slice::<Vec<Order>>(&bytes).unwrap(),
    );
    // ANCHOR_END: parser_only
    results.set("parser", &c);
    c
}

fn deferring(files: &Files, orders: &[Order], results: &mut Results) -> Vec<Row> {
    let bytes = std::fs::read(&files.array).unwrap();
    let bytes = &bytes[..];
    // ANCHOR: defer_later
    let heads: Vec<HeadRaw> = serde_json::from_slice(bytes).unwrap();
    // Later, only for the orders that need it:
    let customer: Customer = serde_json::from_str(heads[0].customer.get()).unwrap();
    let items: Vec<LineItem> = serde_json::from_str(heads[0].items.get()).unwrap();
    // ANCHOR_END: defer_later
    assert_eq!(customer, orders[0].customer);
    assert_eq!(items, orders[0].items);
    assert!(
        heads
            .iter()
            .zip(orders)
            .all(|(h, o)| h.id == o.id && h.status == o.status && h.total_cents == o.total_cents)
    );
    let boxed: Vec<HeadBoxed> = serde_json::from_slice(bytes).unwrap();
    let skipped: Vec<Head> = serde_json::from_slice(bytes).unwrap();
    for ((b, h), o) in boxed.iter().zip(&skipped).zip(orders) {
        assert_eq!(
            (b.id, b.status, b.total_cents),
            (o.id, o.status, o.total_cents)
        );
        assert_eq!(
            (h.id, h.status, h.total_cents),
            (o.id, o.status, o.total_cents)
        );
        assert_eq!(
            serde_json::from_str::<Customer>(b.customer.get()).unwrap(),
            o.customer
        );
    }
    assert_eq!(boxed[1].items.get(), heads[1].items.get());
    let raw_len: usize = heads
        .iter()
        .map(|h| h.customer.get().len() + h.items.get().len())
        .sum();
    results.set("defer.raw_bytes", raw_len);
    results.set("defer.raw_share", raw_len as f64 / bytes.len() as f64);
    drop((heads, boxed, skipped));

    // ANCHOR: defer_measure
    let (_, full) = measure(|| serde_json::from_slice::<Vec<Order>>(bytes).unwrap());
    let (_, raw) = measure(|| serde_json::from_slice::<Vec<HeadRaw>>(bytes).unwrap());
    let c = compare_with(
        config(),
        || serde_json::from_slice::<Vec<Order>>(bytes).unwrap(),
        || serde_json::from_slice::<Vec<HeadRaw>>(bytes).unwrap(),
    );
    // ANCHOR_END: defer_measure
    results.set("defer.compare", &c);
    let (_, head) = measure(|| serde_json::from_slice::<Vec<Head>>(bytes).unwrap());
    let t_head = bench_with(config(), || {
        serde_json::from_slice::<Vec<Head>>(bytes).unwrap()
    });
    let (_, boxed) = measure(|| serde_json::from_slice::<Vec<HeadBoxed>>(bytes).unwrap());
    let t_boxed = bench_with(config(), || {
        serde_json::from_slice::<Vec<HeadBoxed>>(bytes).unwrap()
    });
    let (_, value) = measure(|| serde_json::from_slice::<serde_json::Value>(bytes).unwrap());
    let t_value = bench_with(config(), || {
        serde_json::from_slice::<serde_json::Value>(bytes).unwrap()
    });
    let rows = vec![
        row("full", "Vec<Order>", full, 0, c.a),
        row("head", "Vec<Head> (rest skipped)", head, 0, t_head),
        row("raw", "Vec<HeadRaw> (&RawValue)", raw, 0, c.b),
        row("boxed", "Vec<HeadBoxed> (Box<RawValue>)", boxed, 0, t_boxed),
        row("value", "Value", value, 0, t_value),
    ];
    for r in &rows {
        results.set(&format!("defer.{}", r.key), r);
    }
    results.set("defer.rows", &rows);
    rows
}

fn ratio(results: &mut Results, key: &str, a: f64, b: f64) -> f64 {
    let r = a / b;
    results.set(key, r);
    r
}

fn main() {
    let mut results = Results::new();
    let orders = orders::orders(SEED, N);
    let files = files(&orders);
    let mut expected = Tally::default();
    orders.iter().for_each(|o| expected.add(o));
    let ndjson_len = std::fs::metadata(&files.ndjson).unwrap().len();
    let array_len = std::fs::metadata(&files.array).unwrap().len();
    results.set("params.orders", N);
    results.set("params.seed", SEED);
    results.set("sizes.ndjson", ndjson_len);
    results.set("sizes.array", array_len);
    results.set("sizes.per_order", ndjson_len as f64 / N as f64);
    let in_memory: usize = {
        let (v, a) = measure(|| orders::orders(SEED, N));
        drop(v);
        a.peak as usize
    };
    results.set("sizes.orders_in_memory", in_memory);

    println!(
        "{N} orders (seed {SEED}): {} as one JSON array, {} as one order per line",
        bytes(array_len as f64),
        bytes(ndjson_len as f64)
    );
    println!();
    let w = writing(&orders, &files, &mut results);
    print_rows("Writing the orders to a file", &w, true);
    let r = reading(&files, expected, &mut results);
    print_rows("Reading them back (sum of totals)", &r, true);
    let p = parser_only(&files, &mut results);
    println!(
        "Parser alone, same bytes in memory: from_reader(&[u8]) {} vs from_slice {} ({:.2}×)",
        duration(p.a.median),
        duration(p.b.median),
        p.ratio.value
    );
    println!();
    let d = deferring(&files, &orders, &mut results);
    print_rows(
        "Only the outer fields (id, status, total), from the array in memory",
        &d,
        false,
    );

    let get = |rows: &[Row], key: &str| rows.iter().find(|r| r.key == key).unwrap().clone();
    let (wv, ww, wa, wu) = (
        get(&w, "to_vec"),
        get(&w, "to_writer"),
        get(&w, "all_at_once"),
        get(&w, "unbuffered"),
    );
    ratio(
        &mut results,
        "ratio.write_calls_vec_vs_writer",
        wv.calls as f64,
        ww.calls as f64,
    );
    ratio(
        &mut results,
        "ratio.write_syscalls_vec_vs_writer",
        wv.syscalls as f64,
        ww.syscalls as f64,
    );
    ratio(
        &mut results,
        "ratio.write_syscalls_unbuffered_vs_writer",
        wu.syscalls as f64,
        ww.syscalls as f64,
    );
    ratio(
        &mut results,
        "ratio.write_time_vec_vs_writer",
        wv.time.median,
        ww.time.median,
    );
    ratio(
        &mut results,
        "ratio.write_time_unbuffered_vs_writer",
        wu.time.median,
        ww.time.median,
    );
    ratio(
        &mut results,
        "ratio.write_peak_all_vs_writer",
        wa.peak as f64,
        ww.peak as f64,
    );
    let (ras, rar, rss, rsr, rau) = (
        get(&r, "array_slice"),
        get(&r, "array_reader"),
        get(&r, "stream_slice"),
        get(&r, "stream_reader"),
        get(&r, "array_unbuffered"),
    );
    ratio(
        &mut results,
        "ratio.read_time_reader_vs_slice",
        rar.time.median,
        ras.time.median,
    );
    ratio(
        &mut results,
        "ratio.read_peak_slice_vs_reader",
        ras.peak as f64,
        rar.peak as f64,
    );
    ratio(
        &mut results,
        "ratio.read_peak_array_vs_stream",
        ras.peak as f64,
        rss.peak as f64,
    );
    ratio(
        &mut results,
        "ratio.read_peak_array_vs_stream_reader",
        ras.peak as f64,
        rsr.peak as f64,
    );
    ratio(
        &mut results,
        "ratio.read_time_stream_reader_vs_array_slice",
        rsr.time.median,
        ras.time.median,
    );
    ratio(
        &mut results,
        "ratio.read_time_stream_slice_vs_array_slice",
        rss.time.median,
        ras.time.median,
    );
    ratio(
        &mut results,
        "ratio.read_time_unbuffered_vs_reader",
        rau.time.median,
        rar.time.median,
    );
    let (df, dh, dr, db) = (
        get(&d, "full"),
        get(&d, "head"),
        get(&d, "raw"),
        get(&d, "boxed"),
    );
    ratio(
        &mut results,
        "ratio.defer_calls_full_vs_raw",
        df.calls as f64,
        dr.calls as f64,
    );
    ratio(
        &mut results,
        "ratio.defer_calls_full_vs_boxed",
        df.calls as f64,
        db.calls as f64,
    );
    ratio(
        &mut results,
        "ratio.defer_time_full_vs_raw",
        df.time.median,
        dr.time.median,
    );
    ratio(
        &mut results,
        "ratio.defer_time_full_vs_head",
        df.time.median,
        dh.time.median,
    );
    ratio(
        &mut results,
        "ratio.defer_time_full_vs_boxed",
        df.time.median,
        db.time.median,
    );
    results.set(
        "defer.saved_calls_raw",
        1.0 - dr.calls as f64 / df.calls as f64,
    );
    results.set(
        "defer.saved_calls_boxed",
        1.0 - db.calls as f64 / df.calls as f64,
    );
    results.set(
        "write.saved_calls_writer",
        1.0 - ww.calls as f64 / wv.calls as f64,
    );
    // A bare File is read one byte per call, plus the call that finds the end.
    results.set(
        "read.unbuffered_calls_beyond_bytes",
        rau.syscalls as i64 - array_len as i64,
    );
    results.set(
        "read.saved_peak_stream_reader",
        1.0 - rsr.peak as f64 / ras.peak as f64,
    );
    results.write();
}

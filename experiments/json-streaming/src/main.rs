//! serde_json and I/O: writing 1000 orders straight to a file through
//! `to_writer` vs `to_vec` then `write_all`; reading them back with
//! `from_reader` vs read-all then `from_slice`; `StreamDeserializer` over a
//! stream of orders vs one big array; and `RawValue` to defer the parts of an
//! order you don't need yet. Allocations, peak live heap, syscalls, time.

use harness::alloc::{AllocStats, CountingAlloc, measure};
use harness::{Config, Results, Summary};
use orders::Order;
use serde::Serialize;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::time::Duration;

mod defer;
mod read;
mod tables;
mod write;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Orders written and read in every scenario.
const N: usize = 1000;
const SEED: u64 = 7;
/// Samples of each timing (a batch of calls each); fewer when its time cap is reached.
const SAMPLES: (usize, usize) = (41, 21);

/// Counts the `write` / `read` calls that reach the wrapped file: each is
/// one system call.
pub struct Syscalls<T> {
    pub inner: T,
    pub calls: u64,
}

impl<T> Syscalls<T> {
    pub fn new(inner: T) -> Syscalls<T> {
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

/// One measured scenario.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
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
pub const LABELS: [(&str, &str, &str, &str, &str); 14] = [
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

pub fn row(
    key: &'static str,
    op: &'static str,
    a: AllocStats,
    syscalls: u64,
    time: Summary,
) -> Row {
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
        .samples(harness::pick(SAMPLES.0, SAMPLES.1))
        .max_time(Duration::from_millis(harness::pick(1500, 600)))
}

/// A temp folder for the files, removed on drop (even on panic).
pub struct Files {
    _dir: tempfile::TempDir,
    pub ndjson: PathBuf,
    pub array: PathBuf,
    pub scratch: PathBuf,
}

fn files(orders: &[Order]) -> Files {
    let dir = tempfile::tempdir().expect("temp dir");
    let ndjson = dir.path().join("orders.ndjson");
    let array = dir.path().join("orders.json");
    let scratch = dir.path().join("out.ndjson");
    let mut f = File::create(&ndjson).unwrap();
    write::write_to_writer(orders, &mut f).unwrap();
    std::fs::write(&array, serde_json::to_vec(orders).unwrap()).unwrap();
    Files {
        _dir: dir,
        ndjson,
        array,
        scratch,
    }
}

/// Every ratio the article reads: (key under `ratio.`, numerator, denominator).
const RATIOS: [(&str, &str, &str); 16] = [
    (
        "write_calls_vec_vs_writer",
        "write.to_vec.calls",
        "write.to_writer.calls",
    ),
    (
        "write_syscalls_vec_vs_writer",
        "write.to_vec.syscalls",
        "write.to_writer.syscalls",
    ),
    (
        "write_syscalls_unbuffered_vs_writer",
        "write.unbuffered.syscalls",
        "write.to_writer.syscalls",
    ),
    (
        "write_time_vec_vs_writer",
        "write.to_vec.time",
        "write.to_writer.time",
    ),
    (
        "write_time_unbuffered_vs_writer",
        "write.unbuffered.time",
        "write.to_writer.time",
    ),
    (
        "read_time_array_reader_vs_slice",
        "read.array_reader.time",
        "read.array_slice.time",
    ),
    (
        "read_time_stream_reader_vs_slice",
        "read.stream_reader.time",
        "read.stream_slice.time",
    ),
    (
        "read_time_array_reader_vs_stream_slice",
        "read.array_reader.time",
        "read.stream_slice.time",
    ),
    (
        "read_time_unbuffered_vs_reader",
        "read.array_unbuffered.time",
        "read.array_reader.time",
    ),
    (
        "read_peak_array_vs_stream_reader",
        "read.array_slice.peak",
        "read.stream_reader.peak",
    ),
    (
        "defer_calls_full_vs_raw",
        "defer.full.calls",
        "defer.raw.calls",
    ),
    (
        "defer_calls_full_vs_boxed",
        "defer.full.calls",
        "defer.boxed.calls",
    ),
    (
        "defer_time_full_vs_raw",
        "defer.full.time",
        "defer.raw.time",
    ),
    (
        "defer_time_full_vs_head",
        "defer.full.time",
        "defer.head.time",
    ),
    (
        "defer_time_raw_vs_head",
        "defer.raw.time",
        "defer.head.time",
    ),
    (
        "defer_time_full_vs_boxed",
        "defer.full.time",
        "defer.boxed.time",
    ),
];

/// Every ratio the article reads, declared from the values it is the ratio of.
fn ratios(results: &mut Results) {
    for (key, a, b) in RATIOS {
        results.ratio(&format!("ratio.{key}"), a, b);
    }
    // What skipping costs: Head from the whole array against Head from the three fields.
    results.ratio(
        "ratio.defer_time_head_vs_head_alone",
        "defer.head.time",
        "defer.head_alone.time",
    );
    // What skipping allocates on top: the scratch buffer, its stack of open brackets.
    results.difference(
        "defer.skip_extra_calls",
        "defer.head.calls",
        "defer.head_alone.calls",
    );
    results.ratio(
        "ratio.sizes_array_vs_heads_only",
        "sizes.array",
        "sizes.heads_only",
    );
    // A bare File is read one byte per call, plus the call that finds the end.
    results.difference(
        "read.unbuffered_calls_beyond_bytes",
        "read.array_unbuffered.syscalls",
        "sizes.array",
    );
}

fn main() {
    let mut results = Results::new();
    let orders = orders::orders(SEED, N);
    let files = files(&orders);
    let mut expected = read::Tally::default();
    orders.iter().for_each(|o| expected.add(o));
    results.input("params.orders", N);
    results.input("params.seed", SEED);
    results.input("params.unbuffered_write_calls", write::unbuffered_calls());
    results.input("params.unbuffered_read_calls", read::unbuffered_calls());
    results.set(
        "sizes.ndjson",
        std::fs::metadata(&files.ndjson).unwrap().len(),
    );
    results.set(
        "sizes.array",
        std::fs::metadata(&files.array).unwrap().len(),
    );
    let (v, a) = measure(|| orders::orders(SEED, N));
    drop(v);
    results.set("sizes.orders_in_memory", a.peak);
    write::writing(&orders, &files, &mut results);
    read::reading(&files, expected, &mut results);
    read::parser_only(&files, &mut results);
    defer::deferring(&files, &orders, &mut results);
    ratios(&mut results);
    println!("{N} orders (seed {SEED}), written and read back in a temporary folder\n");
    tables::declare(&mut results);
    results.write();
}

//! Reading the orders back: the array read whole then `from_slice`, or `from_reader` over a
//! `BufReader`; the same for a stream of one order per line; the trap, `from_reader` on the
//! bare file; and the parser alone, `from_reader` against `from_slice` on bytes in memory.

use harness::alloc::measure;
use harness::interleave::{interleaved, routine};
use harness::{Comparison, Results, compare_with, time_each_with};
use orders::Order;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use crate::{Files, Row, Syscalls, config, row};

/// Single calls timed per run of the unbuffered trap (one system call per byte).
pub fn unbuffered_calls() -> usize {
    harness::pick(3, 1)
}

/// What every reader computes: the number of orders and the sum of totals.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    orders: u64,
    total_cents: i64,
}

impl Tally {
    pub fn add(&mut self, o: &Order) {
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

type Reader = fn(&Path) -> io::Result<Tally>;

/// The four buffered ways to read, in the order of the table: key, operation, reader, file,
/// and how its `read` calls are counted (`None`: `fs::read`; `Some(stream)`: a reader).
fn readers(files: &Files) -> [(&'static str, &'static str, Reader, &Path, Option<bool>); 4] {
    [
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
    ]
}

/// The `read` calls of `fs::read`, which sizes its buffer from the file's length first.
fn fs_read_syscalls(path: &Path) -> u64 {
    let len = std::fs::metadata(path).unwrap().len() as usize;
    let mut f = Syscalls::new(File::open(path).unwrap());
    let mut v = Vec::with_capacity(len);
    f.read_to_end(&mut v).unwrap();
    f.calls
}

/// Reads the orders back every way: allocations and system calls counted once each
/// (checking the tally), the four buffered ways timed round-robin, the trap on its own.
pub fn reading(files: &Files, expected: Tally, results: &mut Results) -> Vec<Row> {
    let scenarios = readers(files);
    let mut counted = Vec::new();
    for (_, _, read, path, stream) in scenarios {
        let (t, a) = measure(|| read(path).unwrap());
        assert_eq!(t, expected);
        let syscalls = match stream {
            Some(s) => read_syscalls(path, s).unwrap(),
            None => fs_read_syscalls(path),
        };
        counted.push((a, syscalls));
    }
    let timed = |i: usize| {
        let (read, path) = (scenarios[i].2, scenarios[i].3);
        routine(move || read(path).unwrap())
    };
    let times = interleaved(vec![timed(0), timed(1), timed(2), timed(3)]);
    let mut rows: Vec<Row> = scenarios
        .iter()
        .zip(counted)
        .zip(times)
        .map(|(((key, op, ..), (a, sys)), t)| row(key, op, a, sys, t))
        .collect();
    // The trap: from_reader on the bare file.
    let ((t, syscalls), a) = measure(|| read_array_unbuffered(&files.array).unwrap());
    assert_eq!(t, expected);
    let time = time_each_with(config().warmup_events(0), unbuffered_calls(), || {
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
pub fn parser_only(files: &Files, results: &mut Results) -> Comparison {
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

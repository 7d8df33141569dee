//! Writing the orders to a file: `to_vec` then `write_all`, `to_writer` through a
//! `BufWriter`, everything into one `Vec` then one `write_all`, and the trap, `to_writer`
//! on the bare file. Allocations and system calls counted once each, times round-robin.

use harness::alloc::measure;
use harness::interleave::{interleaved, routine};
use harness::{Results, time_each_with};
use orders::Order;
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};

use crate::{Files, Row, Syscalls, config, row};

/// Single calls timed per run of the unbuffered trap (each makes one system call per piece).
pub fn unbuffered_calls() -> usize {
    harness::pick(5, 2)
}

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
pub fn write_to_writer(orders: &[Order], file: &mut impl Write) -> io::Result<()> {
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

/// The four ways to write, in the order of the table: (key, operation, writer).
const WRITERS: [(&str, &str, Writer); 4] = [
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

fn rewind(f: &mut Syscalls<File>) {
    f.inner.set_len(0).unwrap();
    f.inner.seek(SeekFrom::Start(0)).unwrap();
    f.calls = 0;
}

/// Writes the orders every way: allocations and system calls counted once each (checking
/// the file's bytes), then the three buffered ways timed round-robin and the trap on its own.
pub fn writing(orders: &[Order], files: &Files, results: &mut Results) -> Vec<Row> {
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
    let mut counted = Vec::new();
    for (_, _, write) in WRITERS {
        rewind(&mut file);
        let (r, a) = measure(|| write(orders, &mut file));
        r.unwrap();
        counted.push((a, file.calls));
        assert_eq!(std::fs::read(&files.scratch).unwrap(), expected);
    }
    let file = &RefCell::new(file);
    let timed = |write: Writer| {
        move || {
            let mut f = file.borrow_mut();
            rewind(&mut f);
            write(orders, &mut f).unwrap()
        }
    };
    let mut times = interleaved(vec![
        routine(timed(WRITERS[0].2)),
        routine(timed(WRITERS[1].2)),
        routine(timed(WRITERS[2].2)),
    ]);
    // ~ one system call per token: slow, so a few individually timed calls
    times.push(time_each_with(
        config().warmup_events(1),
        unbuffered_calls(),
        timed(WRITERS[3].2),
    ));
    let rows: Vec<Row> = WRITERS
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

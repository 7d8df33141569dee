//! The experiment's output tables, declared with labels in both of the blog's languages and
//! cells that name results paths, so that the article's output block shows the combined runs.

use harness::Results;
use harness::declare::{Label, Table, text, value, value_as};

/// Declares the tables: writing, reading, deferring, and the ratios of the timings taken
/// together.
pub fn declare(results: &mut Results) {
    results.table(rows(
        "write",
        &["to_vec", "to_writer", "all_at_once", "unbuffered"],
        true,
        Label::new("Ghi các đơn hàng vào file", "Writing the orders to a file"),
    ));
    results.table(rows(
        "read",
        &[
            "array_slice",
            "array_reader",
            "stream_slice",
            "stream_reader",
            "array_unbuffered",
        ],
        true,
        Label::new(
            "Đọc lại (cộng tổng tiền)",
            "Reading them back (sum of totals)",
        ),
    ));
    results.table(rows(
        "defer",
        &["full", "head", "raw", "boxed", "value"],
        false,
        Label::new(
            "Chỉ các trường ngoài cùng (id, status, total), từ mảng trong bộ nhớ",
            "Only the outer fields (id, status, total), from the array in memory",
        ),
    ));
    results.table(ratios());
}

/// One row per scenario `keys` under `prefix`, labelled as the article's tables label it.
fn rows(prefix: &str, keys: &[&str], syscalls: bool, title: Label) -> Table {
    let mut columns = vec![
        Label::new("thao tác", "operation"),
        Label::same("alloc"),
        Label::same("realloc"),
        Label::new("byte yêu cầu", "bytes requested"),
        Label::new("đỉnh bộ nhớ", "peak heap"),
    ];
    if syscalls {
        columns.push(Label::same("syscalls"));
    }
    columns.push(Label::new("thời gian (trung vị)", "time (median)"));
    let mut t = Table::new(columns).titled(title);
    for key in keys {
        let at = |field: &str| format!("{prefix}.{key}.{field}");
        let label = crate::LABELS
            .iter()
            .find(|l| l.0 == *key)
            .expect("a label per row");
        let mut cells = vec![
            text(label.1, label.2),
            value(at("allocs")),
            value(at("reallocs")),
            value_as(at("bytes"), "bytes"),
            value_as(at("peak"), "bytes"),
        ];
        if syscalls {
            cells.push(value(at("syscalls")));
        }
        cells.push(value(at("time")));
        t.row(cells);
    }
    t
}

fn ratios() -> Table {
    let mut t = Table::new([
        Label::new("tỉ số thời gian", "ratio of times"),
        Label::new("hai bên đo", "the two timed"),
        Label::same("A / B"),
    ])
    .titled(Label::new("So sánh thời gian", "Times compared"));
    const TOGETHER: (&str, &str) = ("xen kẽ", "interleaved");
    const APART: (&str, &str) = ("riêng", "separately");
    let rows = [
        (
            "ratio.write_time_vec_vs_writer",
            "to_vec / to_writer(BufWriter)",
            "to_vec / to_writer(BufWriter)",
            TOGETHER,
        ),
        (
            "ratio.write_time_unbuffered_vs_writer",
            "to_writer(File) / to_writer(BufWriter)",
            "to_writer(File) / to_writer(BufWriter)",
            APART,
        ),
        (
            "ratio.read_time_array_reader_vs_slice",
            "mảng: from_reader / from_slice",
            "array: from_reader / from_slice",
            TOGETHER,
        ),
        (
            "ratio.read_time_stream_reader_vs_slice",
            "luồng: from_reader / from_slice",
            "stream: from_reader / from_slice",
            TOGETHER,
        ),
        (
            "ratio.read_time_array_reader_vs_stream_slice",
            "mảng, from_reader / luồng, from_slice",
            "array, from_reader / stream, from_slice",
            TOGETHER,
        ),
        (
            "ratio.read_time_unbuffered_vs_reader",
            "from_reader(File) / from_reader(BufReader)",
            "from_reader(File) / from_reader(BufReader)",
            APART,
        ),
        (
            "parser.ratio",
            "from_reader(&[u8]) / from_slice",
            "from_reader(&[u8]) / from_slice",
            TOGETHER,
        ),
        (
            "ratio.defer_time_full_vs_raw",
            "Vec<Order> / Vec<HeadRaw>",
            "Vec<Order> / Vec<HeadRaw>",
            TOGETHER,
        ),
        (
            "ratio.defer_time_full_vs_head",
            "Vec<Order> / Vec<Head>",
            "Vec<Order> / Vec<Head>",
            TOGETHER,
        ),
        (
            "ratio.defer_time_raw_vs_head",
            "Vec<HeadRaw> / Vec<Head>",
            "Vec<HeadRaw> / Vec<Head>",
            TOGETHER,
        ),
        (
            "ratio.defer_time_head_vs_head_alone",
            "Vec<Head>: cả mảng / chỉ ba trường",
            "Vec<Head>: whole array / three fields only",
            TOGETHER,
        ),
    ];
    for (path, vi, en, (how_vi, how_en)) in rows {
        t.row([text(vi, en), text(how_vi, how_en), value(path)]);
    }
    t
}

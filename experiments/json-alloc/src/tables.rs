//! The experiment's output tables, declared with labels in both of the blog's languages and
//! cells that name results paths, so that the article's output block shows the combined runs.

use harness::Results;
use harness::declare::{Label, Table, same, text, value, value_as};

/// Declares the tables: each input's operations, where the owned decode's allocations come
/// from, escapes, and the interleaved pairs of timings.
pub fn declare(results: &mut Results) {
    results.table(ops(
        "one",
        Label::new(
            "Một đơn hàng (orders::sample_order)",
            "One order (orders::sample_order)",
        ),
    ));
    results.table(ops(
        "batch",
        Label::new("Cả lô đơn hàng", "The batch of orders"),
    ));
    results.table(model());
    results.table(escapes());
    results.table(pairs());
}

/// (results key, model key, name)
const OPS: [(&str, Option<&str>, &str); 5] = [
    ("to_vec", Some("to_vec"), "to_vec"),
    ("to_writer", None, "to_writer(&mut reused)"),
    ("owned", Some("owned"), "from_slice::<Order>"),
    ("borrowed", Some("borrowed"), "from_slice::<OrderRef>"),
    ("value", Some("value"), "from_slice::<Value>"),
];

fn ops(key: &str, title: Label) -> Table {
    let mut t = Table::new([
        Label::new("thao tác", "operation"),
        Label::same("alloc"),
        Label::same("realloc"),
        Label::new("byte yêu cầu", "bytes requested"),
        Label::new("mô hình (lần gọi)", "model (calls)"),
        Label::new("thời gian (trung vị)", "time (median)"),
        Label::new("mỗi đơn", "per order"),
    ])
    .titled(title);
    for (op, model, name) in OPS {
        let at = |field: &str| format!("{key}.{op}.{field}");
        t.row([
            same(name),
            value(at("allocs")),
            value(at("reallocs")),
            value_as(at("bytes"), "bytes"),
            match model {
                Some(m) => value(format!("{key}.model.{m}.calls")),
                None => text("(không)", "(none)"),
            },
            value(at("time")),
            value(at("per_order")),
        ]);
    }
    t
}

fn model() -> Table {
    let mut t = Table::new([
        Label::new("nguồn", "source"),
        Label::new("một đơn", "one order"),
        Label::new("cả lô", "the batch"),
    ])
    .titled(Label::new(
        "Cấp phát của from_slice::<Order>: mô hình và bộ đếm",
        "Allocations of from_slice::<Order>: model and counter",
    ));
    let rows = [
        ("model.owned.strings", "chuỗi String", "String fields"),
        (
            "model.owned.vecs",
            "bộ đệm đầu của Vec",
            "Vec first buffers",
        ),
        (
            "model.owned.growth",
            "Vec lớn lên (realloc)",
            "Vec growth (realloc)",
        ),
        ("model.owned.calls", "mô hình, tổng", "model, total"),
        (
            "model.scratch_calls",
            "bộ đệm scratch (escape)",
            "scratch buffer (escapes)",
        ),
        ("owned.calls", "bộ đếm đo được", "measured by the counter"),
        ("model.owned.bytes", "byte theo mô hình", "bytes, model"),
        ("owned.bytes", "byte đo được", "bytes, measured"),
    ];
    for (path, vi, en) in rows {
        t.row([
            text(vi, en),
            value(format!("one.{path}")),
            value(format!("batch.{path}")),
        ]);
    }
    t
}

fn escapes() -> Table {
    let mut t = Table::new([
        Label::new("đầu vào", "input"),
        Label::new("byte JSON", "JSON bytes"),
        Label::new("chuỗi mượn", "strings borrowed"),
        Label::new("chuỗi chép", "strings copied"),
        Label::new("cấp phát OrderRef", "OrderRef allocations"),
        Label::new("cấp phát Order", "Order allocations"),
    ])
    .titled(Label::new(
        "Ký tự thoát và việc mượn chuỗi (một đơn hàng)",
        "Escapes and borrowing (one order)",
    ));
    let rows = [
        ("clean", "đơn mẫu (UTF-8)", "sample order (UTF-8)"),
        (
            "quoted",
            "ghi chú có \\\"ngoặc kép\\\"",
            "note with \\\"quotes\\\"",
        ),
        ("ascii", "chỉ ASCII (\\uXXXX)", "ASCII-only (\\uXXXX)"),
    ];
    for (key, vi, en) in rows {
        let at = |field: &str| value(format!("escape.{key}.{field}"));
        t.row([
            text(vi, en),
            at("json_bytes"),
            at("borrowed_strings"),
            at("owned_strings"),
            at("borrowed_calls"),
            at("owned_calls"),
        ]);
    }
    t
}

fn pairs() -> Table {
    let mut t = Table::new([
        Label::new("cặp đo xen kẽ (A / B)", "pair timed interleaved (A / B)"),
        Label::same("A"),
        Label::same("B"),
        Label::same("A / B"),
    ])
    .titled(Label::new("Thời gian, trung vị", "Times, medians"));
    let rows = [
        (
            "one.to_vec.time",
            "one.to_writer.time",
            "one.ratio.to_vec_vs_writer",
            "một đơn: to_vec / to_writer",
            "one order: to_vec / to_writer",
        ),
        (
            "batch.to_vec.time",
            "batch.to_writer.time",
            "batch.ratio.to_vec_vs_writer",
            "cả lô: to_vec / to_writer",
            "batch: to_vec / to_writer",
        ),
        (
            "one.owned.time",
            "one.borrowed.time",
            "one.ratio.owned_vs_borrowed",
            "một đơn: Order / OrderRef",
            "one order: Order / OrderRef",
        ),
        (
            "batch.owned.time",
            "batch.borrowed.time",
            "batch.ratio.owned_vs_borrowed",
            "cả lô: Order / OrderRef",
            "batch: Order / OrderRef",
        ),
        (
            "one.value.time",
            "one.owned_beside_value.time",
            "one.ratio.value_vs_owned",
            "một đơn: Value / Order",
            "one order: Value / Order",
        ),
        (
            "batch.value.time",
            "batch.owned_beside_value.time",
            "batch.ratio.value_vs_owned",
            "cả lô: Value / Order",
            "batch: Value / Order",
        ),
        (
            "escape.ascii_time.a",
            "escape.ascii_time.b",
            "escape.ascii_time_ratio",
            "OrderRef: chỉ ASCII / UTF-8",
            "OrderRef: ASCII-only / UTF-8",
        ),
        (
            "escape.ascii_owned_time.a",
            "escape.ascii_owned_time.b",
            "escape.ascii_owned_time_ratio",
            "Order: chỉ ASCII / UTF-8",
            "Order: ASCII-only / UTF-8",
        ),
        (
            "counting.a",
            "counting.b",
            "counting.ratio",
            "cả lô vào Value: đếm bật / tắt",
            "batch into Value: counting on / off",
        ),
    ];
    for (a, b, ratio, vi, en) in rows {
        t.row([text(vi, en), value(a), value(b), value(ratio)]);
    }
    t
}

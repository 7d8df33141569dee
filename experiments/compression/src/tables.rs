//! The experiment's output tables, declared with labels in both of the blog's languages and
//! cells that name results paths, so that the article's output block shows the combined runs.

use harness::Results;
use harness::declare::{Label, Table, same, text, value, value_as};

/// Declares the four tables: the forms of the batch, the interleaved timings, the sweep of
/// batch sizes (`by_batch.<size>`) and the levels (`level.<key>`).
pub fn declare(results: &mut Results, batches: &[usize], levels: &[String]) {
    results.table(sizes());
    results.table(times());
    results.table(sweep(batches));
    results.table(self::levels(levels));
}

fn sizes() -> Table {
    let mut t = Table::new([
        Label::new("định dạng", "format"),
        Label::new("kích thước", "size"),
        Label::new("mỗi đơn", "per order"),
        Label::new("tỉ lệ nén", "compression"),
        Label::new("so với JSON thô", "vs raw JSON"),
        Label::new("mã hóa + nén", "encode + compress"),
        Label::new("giải nén + giải mã", "decompress + decode"),
    ])
    .titled(Label::new(
        "Cả lô theo định dạng (thời gian: trung vị)",
        "The batch by format (times: medians)",
    ));
    // (key, name, time to send, time to receive)
    let forms = [
        ("json", "JSON", "encode.a", "decode.a"),
        ("json_gzip", "JSON + gzip", "send.gzip.a", "receive.gzip.a"),
        ("json_zstd", "JSON + zstd", "send.zstd.a", "receive.zstd.a"),
        ("protobuf", "Protobuf", "encode.b", "decode.b"),
        (
            "protobuf_gzip",
            "Protobuf + gzip",
            "send.gzip.b",
            "receive.gzip.b",
        ),
        (
            "protobuf_zstd",
            "Protobuf + zstd",
            "send.zstd.b",
            "receive.zstd.b",
        ),
    ];
    for (key, name, send, receive) in forms {
        t.row([
            same(name),
            value_as(format!("size.{key}"), "bytes"),
            value_as(format!("per_order.{key}"), "bytes"),
            value(format!("compression.{key}")),
            value(format!("vs_json.{key}")),
            value(send),
            value(receive),
        ]);
    }
    t
}

fn times() -> Table {
    let mut t = Table::new([
        Label::new("thao tác (trung vị)", "operation (median)"),
        Label::same("JSON"),
        Label::same("Protobuf"),
        Label::same("JSON / Protobuf"),
    ])
    .titled(Label::new(
        "JSON và Protobuf đo xen kẽ",
        "JSON and Protobuf timed interleaved",
    ));
    let rows = [
        ("encode", "mã hóa", "encode"),
        ("decode", "giải mã", "decode"),
        ("gzip.compress", "nén gzip", "gzip compress"),
        ("gzip.decompress", "giải nén gzip", "gzip decompress"),
        ("zstd.compress", "nén zstd", "zstd compress"),
        ("zstd.decompress", "giải nén zstd", "zstd decompress"),
        ("send.gzip", "mã hóa + nén gzip", "encode + gzip"),
        ("send.zstd", "mã hóa + nén zstd", "encode + zstd"),
        ("receive.gzip", "giải nén gzip + giải mã", "gunzip + decode"),
        ("receive.zstd", "giải nén zstd + giải mã", "unzstd + decode"),
    ];
    for (key, vi, en) in rows {
        t.row([
            text(vi, en),
            value(format!("{key}.a")),
            value(format!("{key}.b")),
            value(format!("{key}.ratio")),
        ]);
    }
    t
}

fn sweep(batches: &[usize]) -> Table {
    let mut t = Table::new([
        Label::new("đơn mỗi lô", "orders per batch"),
        Label::same("JSON"),
        Label::same("+ gzip"),
        Label::same("+ zstd"),
        Label::same("Protobuf"),
        Label::same("+ gzip"),
        Label::same("+ zstd"),
    ])
    .titled(Label::new(
        "Số byte mỗi đơn hàng khi nén từng lô riêng",
        "Bytes per order when each batch is compressed on its own",
    ));
    for b in batches {
        let at = |field: &str| value_as(format!("by_batch.{b}.{field}"), "bytes");
        t.row([
            value(format!("by_batch.{b}.batch")),
            at("json"),
            at("json_gzip"),
            at("json_zstd"),
            at("protobuf"),
            at("protobuf_gzip"),
            at("protobuf_zstd"),
        ]);
    }
    t
}

fn levels(keys: &[String]) -> Table {
    let mut t = Table::new([
        Label::new("mức nén", "level"),
        Label::same("JSON"),
        Label::same("Protobuf"),
        Label::same("JSON / Protobuf"),
        Label::new("nén JSON", "compress JSON"),
        Label::new("nén Protobuf", "compress Protobuf"),
        Label::new("lần gọi đo mỗi lần chạy", "calls timed per run"),
    ])
    .titled(Label::new(
        "Cả lô theo thuật toán và mức nén (thời gian: trung vị)",
        "The batch by algorithm and level (times: medians)",
    ));
    for key in keys {
        let at = |field: &str| format!("level.{key}.{field}");
        t.row([
            value(at("codec")),
            value_as(at("json"), "bytes"),
            value_as(at("protobuf"), "bytes"),
            value_as(at("ratio"), "ratio"),
            value(at("json_compress")),
            value(at("protobuf_compress")),
            value_as(at("calls"), "int"),
        ]);
    }
    t
}

//! What the TLS experiment reports: each variant summarized, the figures computed for a real
//! network, the derived values the article quotes, and its output table.

use harness::declare::{Label, Table, same, value, value_as};
use harness::{Results, Summary};
use rustls::HandshakeKind;

use crate::{Sample, Variant};

/// Round-trip times of the computed real-network figures, in ms.
const RTTS_MS: [f64; 3] = [1.0, 20.0, 150.0];

/// One variant, summarized over its connections.
#[derive(serde::Serialize)]
pub struct Row {
    key: &'static str,
    name: &'static str,
    wall: Summary,
    handshake: Summary,
    client_cpu: Summary,
    server_cpu: Summary,
    /// Client + server CPU of each connection.
    cpu: Summary,
    round_trips: u32,
    bytes: u64,
    /// Sessions the server stored per connection (median).
    stored: u64,
    resumed: usize,
    full: usize,
    kx_group: String,
    suite: String,
}

/// One request on a new connection at each RTT: the loopback median plus round trips × RTT.
#[derive(serde::Serialize)]
struct Computed {
    key: &'static str,
    name: &'static str,
    round_trips: u32,
    rtt_1ms: f64,
    rtt_20ms: f64,
    rtt_150ms: f64,
}

fn median<T: Copy + Ord>(mut v: Vec<T>) -> T {
    v.sort_unstable();
    v[v.len() / 2]
}

pub fn summarize(v: &Variant) -> Row {
    let s = &v.samples;
    let col = |f: fn(&Sample) -> f64| Summary::from_ns(s.iter().map(f).collect());
    let last = s.last().expect("samples");
    let count = |kind: HandshakeKind| s.iter().filter(|x| x.kind == Some(kind)).count();
    Row {
        key: v.key,
        name: v.name,
        wall: col(|x| x.wall_ns),
        handshake: col(|x| x.handshake_ns),
        client_cpu: col(|x| x.client_cpu_ns),
        server_cpu: col(|x| x.server_cpu_ns),
        cpu: col(|x| x.client_cpu_ns + x.server_cpu_ns),
        round_trips: median(s.iter().map(|x| x.round_trips).collect()),
        bytes: median(s.iter().map(|x| x.bytes).collect()),
        stored: median(s.iter().map(|x| x.stored).collect()),
        resumed: count(HandshakeKind::Resumed),
        full: count(HandshakeKind::Full),
        kx_group: last.kx_group.clone().unwrap_or_else(|| "-".into()),
        suite: last.suite.clone().unwrap_or_else(|| "-".into()),
    }
}

/// Each variant under its key and in `rows`, the computed real-network figures, the
/// negotiated parameters.
pub fn record(res: &mut Results, rows: &[Row]) {
    for (i, ms) in RTTS_MS.iter().enumerate() {
        res.input_duration(&format!("rtts.{i}"), ms * 1e6);
    }
    let computed: Vec<Computed> = rows
        .iter()
        .map(|r| {
            let at = |ms: f64| r.wall.median + f64::from(r.round_trips) * ms * 1e6;
            Computed {
                key: r.key,
                name: r.name,
                round_trips: r.round_trips,
                rtt_1ms: at(RTTS_MS[0]),
                rtt_20ms: at(RTTS_MS[1]),
                rtt_150ms: at(RTTS_MS[2]),
            }
        })
        .collect();
    for (r, c) in rows.iter().zip(&computed) {
        res.set(r.key, r);
        res.set(&format!("at_rtt.{}", c.key), c);
    }
    res.set("rows", rows);
    res.set("computed", &computed);
    let by = |k: &str| rows.iter().find(|r| r.key == k).expect("variant");
    res.set("kx_group", &by("tls13_full").kx_group);
    res.set("suite13", &by("tls13_full").suite);
    res.set("suite12", &by("tls12_full").suite);
}

/// The figures the article computes from two others, declared so that the published ones
/// are computed from the combined runs.
pub fn derive(res: &mut Results) {
    res.difference("tls13_extra_ns", "tls13_full.wall", "tcp.wall");
    res.ratio("tls13_over_tcp", "tls13_full.wall", "tcp.wall");
    res.difference("tls13_extra_cpu_ns", "tls13_full.cpu", "tcp.cpu");
    res.share(
        "tls13_extra_cpu_share",
        "tls13_extra_cpu_ns",
        "tls13_extra_ns",
    );
    // Both from one run: a loaded machine slows both sides of a run alike.
    res.ratio(
        "tls13_client_over_server_cpu",
        "tls13_full.client_cpu",
        "tls13_full.server_cpu",
    );
    res.ratio(
        "tls13_resume_speedup",
        "tls13_full.wall",
        "tls13_resumed.wall",
    );
    res.ratio(
        "tls12_resume_speedup",
        "tls12_full.wall",
        "tls12_resumed.wall",
    );
    // What resumption saves, as a share of a full handshake's CPU.
    for (v, full, resumed) in [
        ("tls13_resume_cpu", "tls13_full.cpu", "tls13_resumed.cpu"),
        (
            "tls13_resume_client",
            "tls13_full.client_cpu",
            "tls13_resumed.client_cpu",
        ),
        ("tls12_resume_cpu", "tls12_full.cpu", "tls12_resumed.cpu"),
    ] {
        let saved_ns = format!("{v}_saved_ns");
        res.difference(&saved_ns, full, resumed);
        res.share(&format!("{v}_saved"), &saved_ns, full);
    }
    // The server's CPU with resumption, as a multiple of a full handshake's.
    res.ratio(
        "tls13_resume_server_ratio",
        "tls13_resumed.server_cpu",
        "tls13_full.server_cpu",
    );
    let rtts = |a: &str, b: &str| (format!("{a}.round_trips"), format!("{b}.round_trips"));
    for (key, (a, b)) in [
        ("tls13_extra_rtts", rtts("tls13_full", "tcp")),
        ("tls12_extra_rtts", rtts("tls12_full", "tls13_full")),
        (
            "tls13_resume_rtts_saved",
            rtts("tls13_full", "tls13_resumed"),
        ),
        (
            "tls12_resume_rtts_saved",
            rtts("tls12_full", "tls12_resumed"),
        ),
    ] {
        res.difference(key, &a, &b);
    }
    res.product(
        "tls12_resume_saved_150ms_ns",
        "tls12_resume_rtts_saved",
        "rtts.2",
    );
    res.ratio(
        "tls13_full_150ms_over_tcp",
        "at_rtt.tls13_full.rtt_150ms",
        "at_rtt.tcp.rtt_150ms",
    );
}

/// The experiment's output: one row per variant.
pub fn tables(res: &mut Results, rows: &[Row]) {
    let mut t = Table::new([
        Label::new("Biến thể", "Variant"),
        Label::new("Tổng thời gian", "Total"),
        Label::new("Đến hết bắt tay", "Until handshake done"),
        Label::new("CPU máy khách", "Client CPU"),
        Label::new("CPU máy chủ", "Server CPU"),
        Label::new("Vòng đi về", "Round trips"),
        Label::new("Byte trên socket", "Bytes on the socket"),
        Label::new("Phiên máy chủ lưu", "Sessions stored by the server"),
        Label::new("Số lần resumed", "Resumed"),
        Label::new("Nhóm trao đổi khóa", "Key exchange"),
    ])
    .titled(Label::new(
        "Một kết nối mới của từng biến thể (trung vị của mỗi cột)",
        "One new connection per variant (median of each column)",
    ));
    for r in rows {
        let k = |field: &str| format!("{}.{field}", r.key);
        t.row([
            same(r.name),
            value(k("wall")),
            value(k("handshake")),
            value(k("client_cpu")),
            value(k("server_cpu")),
            value_as(k("round_trips"), "int"),
            value_as(k("bytes"), "bytes"),
            value_as(k("stored"), "int"),
            value_as(k("resumed"), "int"),
            value(k("kx_group")),
        ]);
    }
    res.table(t);
}

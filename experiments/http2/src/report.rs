//! What the HTTP experiment reports: each protocol summarized over the rounds, the derived
//! figures the article quotes, and its output table.

use harness::declare::{Label, Table, same, value, value_as};
use harness::{Results, Summary};
use serde::Serialize;

use crate::{Bursts, Settled};

/// One protocol, summarized.
#[derive(Serialize)]
pub struct Proto {
    key: &'static str,
    name: &'static str,
    cold: Summary,
    warm: Summary,
    /// Connections a burst started (median over the rounds).
    conns_cold: usize,
    conns_warm: usize,
    /// Every connection the clients started, all rounds and both bursts,
    client_started: usize,
    /// of which connected (the client's count)
    client_connects: usize,
    /// or failed;
    client_failed: usize,
    /// the rest had done neither when the counts were read.
    client_pending: usize,
    /// Every connection the server accepted over the same rounds,
    server_accepted: usize,
    /// of which the clients had connected (same address and port on both sides).
    server_matched: usize,
    /// Connections the clients connected that the server did not accept: 0 when every
    /// one arrived.
    missing: usize,
    /// Connections the server accepted that no client connect reported.
    extra: usize,
    hol_fast: Summary,
    hol_slow: Summary,
}

fn median(mut v: Vec<usize>) -> usize {
    v.sort_unstable();
    v[v.len() / 2]
}

/// Both protocols from the bursts, the settled counts and the head-of-line
/// times (fast, slow).
pub fn summarize(
    b: &Bursts,
    counts: [Settled; 2],
    fast: &[Vec<f64>; 2],
    slow: &[Vec<f64>; 2],
) -> Vec<Proto> {
    let keys = [("h1", "HTTP/1.1"), ("h2", "HTTP/2")];
    (0..2)
        .map(|p| {
            let c = counts[p];
            Proto {
                key: keys[p].0,
                name: keys[p].1,
                cold: Summary::from_ns(b.cold[p].clone()),
                warm: Summary::from_ns(b.warm[p].clone()),
                conns_cold: median(b.conns_cold[p].clone()),
                conns_warm: median(b.conns_warm[p].clone()),
                client_started: c.started,
                client_connects: c.established,
                client_failed: c.failed,
                client_pending: c.started - c.established - c.failed,
                server_accepted: c.accepted,
                server_matched: c.matched,
                missing: c.established - c.matched,
                extra: c.accepted - c.matched,
                hol_fast: Summary::from_ns(fast[p].clone()),
                hol_slow: Summary::from_ns(slow[p].clone()),
            }
        })
        .collect()
}

/// Each protocol under its key and in `protos`, and the figures derived from them.
pub fn record(res: &mut Results, protos: &[Proto]) {
    for p in protos {
        res.set(p.key, p);
    }
    res.set("protos", protos);
    res.ratio("cold_speedup", "h1.cold", "h2.cold");
    res.ratio("warm_ratio", "h1.warm", "h2.warm");
    res.ratio("hol_ratio", "h1.hol_fast", "h2.hol_fast");
}

/// The experiment's output: the bursts, then head-of-line blocking.
pub fn tables(res: &mut Results) {
    let mut t = Table::new([
        Label::new("Giao thức", "Protocol"),
        Label::new("Loạt lạnh", "Cold burst"),
        Label::new("Kết nối mới (lạnh)", "New connections (cold)"),
        Label::new("Loạt ấm", "Warm burst"),
        Label::new("Kết nối mới (ấm)", "New connections (warm)"),
    ])
    .titled(Label::new(
        "Một loạt request song song (trung vị qua các vòng)",
        "A burst of parallel requests (median over the rounds)",
    ));
    for (k, name) in [("h1", "HTTP/1.1"), ("h2", "HTTP/2")] {
        t.row([
            same(name),
            value(format!("{k}.cold")),
            value_as(format!("{k}.conns_cold"), "int"),
            value(format!("{k}.warm")),
            value_as(format!("{k}.conns_warm"), "int"),
        ]);
    }
    res.table(t);
    let mut t = Table::new([
        Label::new("Giao thức", "Protocol"),
        Label::new("Request nhanh (trung vị)", "Fast requests (median)"),
        Label::new("Request chậm", "Slow request"),
    ])
    .titled(Label::new(
        "Chặn đầu hàng: một request chậm và các request nhanh trên một kết nối",
        "Head-of-line blocking: one slow request and the fast ones on one connection",
    ));
    for (k, name) in [("h1", "HTTP/1.1"), ("h2", "HTTP/2")] {
        t.row([
            same(name),
            value(format!("{k}.hol_fast")),
            value(format!("{k}.hol_slow")),
        ]);
    }
    res.table(t);
}

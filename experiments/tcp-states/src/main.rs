//! Networking part 4: who keeps TIME_WAIT after thousands of short connections
//! (client closes first, server closes first, SO_LINGER(0)), and the CLOSE_WAIT
//! plus open file descriptors left by a server that "forgets" to close.

use harness::Results;
use harness::declare::{Label, Table, same, text, value, value_as};
use netlab::fds::open_fds;
use netlab::tcp::{self, Counts, Side, State};
use serde::Serialize;
use socket2::{Domain, Protocol, SockRef, Socket, Type};
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Short connections per scenario.
const SHORT: usize = 2000;
/// Connections the forgetful server never closes.
const LEAK: usize = 200;
/// How long the experiment waits to see whether CLOSE_WAIT goes away on its own.
const LEAK_WAIT_S: u64 = 1;
/// TCP_TIMEWAIT_LEN: a constant compiled into the Linux kernel (60 s).
const TIMEWAIT_LEN_S: u64 = 60;

#[derive(Clone, Copy, PartialEq)]
enum Closer {
    Client,
    Server,
    ClientLinger0,
}

#[derive(Serialize)]
struct Row {
    scenario: &'static str,
    scenario_vi: &'static str,
    connections: usize,
    client_time_wait: usize,
    server_time_wait: usize,
    other: usize,
    secs: f64,
}

/// Read until the peer closes (EOF) or resets the connection.
fn drain(s: &mut TcpStream) {
    let mut b = [0u8; 64];
    while let Ok(n) = s.read(&mut b) {
        if n == 0 {
            break;
        }
    }
}

/// Wait until no socket of `port` is in a short-lived closing state. FIN_WAIT2 counts too:
/// the side that closed first sits in it until the peer's FIN arrives, and under load some
/// of a burst's sockets were still there when counted (one run of the server-closes-first
/// case counted fewer TIME_WAIT sockets than connections). Bounded: 5 s at most.
fn settle(port: u16) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let c = tcp::count(&[port], Side::Both);
        let closing = c.fin_wait1 + c.fin_wait2 + c.last_ack + c.closing + c.established;
        if closing == 0 || Instant::now() > deadline {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A client connected to 127.0.0.1:`port` from its own loopback address, 127.`net`.x.y,
/// one per connection index `i`. No two connections then share a four-tuple, even when a
/// machine crowded with TIME_WAIT sockets makes the kernel hand an ephemeral port out
/// again: a SYN from the same address and port would end the earlier connection's
/// TIME_WAIT on the server early, and the counts would no longer be one per connection.
fn connect_from(net: u8, i: usize, port: u16) -> TcpStream {
    let ip = Ipv4Addr::new(127, net, (i / 250) as u8, (i % 250 + 1) as u8);
    let s = Socket::new(Domain::IPV4, Type::STREAM, Some(Protocol::TCP)).unwrap();
    s.bind(&SocketAddr::from((ip, 0)).into()).unwrap();
    s.connect(&SocketAddr::from((Ipv4Addr::LOCALHOST, port)).into())
        .unwrap();
    s.into()
}

/// One scenario's row, and the seconds left on its TIME_WAIT timers.
fn short_connections(closer: Closer) -> (Row, Timers) {
    let listener = tcp::fresh_listener();
    let port = listener.local_addr().unwrap().port();
    let t0 = Instant::now();
    let server = std::thread::spawn(move || {
        // ANCHOR: server_short
        for _ in 0..SHORT {
            let (mut s, _) = listener.accept().unwrap();
            s.set_nodelay(true).unwrap();
            let mut b = [0u8; 1];
            s.read_exact(&mut b).unwrap();
            s.write_all(&b).unwrap();
            if closer != Closer::Server {
                drain(&mut s); // wait for the client's FIN (or RST)
            }
            // `s` is dropped here: close(), FIN
        }
        // ANCHOR_END: server_short
    });
    for i in 0..SHORT {
        // ANCHOR: client_short
        let mut s = connect_from(1, i, port); // from 127.1.x.y, its own address
        s.set_nodelay(true).unwrap();
        if closer == Closer::ClientLinger0 {
            // Linger on, timeout 0: close() sends RST and skips TIME_WAIT.
            SockRef::from(&s).set_linger(Some(Duration::ZERO)).unwrap();
        }
        s.write_all(b"?").unwrap();
        let mut b = [0u8; 1];
        s.read_exact(&mut b).unwrap();
        if closer == Closer::Server {
            drain(&mut s); // let the server close first
        }
        drop(s);
        // ANCHOR_END: client_short
    }
    server.join().unwrap();
    let secs = t0.elapsed().as_secs_f64();
    settle(port);
    // One read for the counts and the timers: every second it takes comes off them.
    let sockets = tcp::entries(&[port], Side::Both);
    let time_wait = |side: Side| {
        sockets
            .iter()
            .filter(|e| e.state == State::TimeWait && tcp::matches(e, &[port], side))
            .count()
    };
    let (client_time_wait, server_time_wait) = (time_wait(Side::Client), time_wait(Side::Server));
    let (scenario, scenario_vi) = match closer {
        Closer::Client => ("client closes first", "client đóng trước"),
        Closer::Server => ("server closes first", "server đóng trước"),
        Closer::ClientLinger0 => ("client SO_LINGER(0)", "client SO_LINGER(0)"),
    };
    let row = Row {
        scenario,
        scenario_vi,
        connections: SHORT,
        client_time_wait,
        server_time_wait,
        other: sockets.len() - client_time_wait - server_time_wait,
        secs,
    };
    (row, time_wait_timers(&sockets, TIMEWAIT_LEN_S as f64))
}

/// Seconds left on TIME_WAIT timers: the lowest, the highest, how many above `len_s`.
struct Timers {
    min: f64,
    max: f64,
    above: usize,
}

fn time_wait_timers(sockets: &[tcp::Entry], len_s: f64) -> Timers {
    let secs: Vec<f64> = sockets
        .iter()
        .filter(|e| e.state == State::TimeWait)
        .map(|e| e.timer_secs())
        .collect();
    Timers {
        min: secs.iter().cloned().fold(f64::INFINITY, f64::min),
        max: secs.iter().cloned().fold(0.0, f64::max),
        above: secs.iter().filter(|&&s| s > len_s).count(),
    }
}

#[derive(Serialize)]
struct LeakPhase {
    phase: &'static str,
    phase_vi: &'static str,
    server_close_wait: usize,
    client_fin_wait2: usize,
    client_time_wait: usize,
    extra_fds: i64,
}

fn leak_phase(
    phase: &'static str,
    phase_vi: &'static str,
    port: u16,
    fds0: usize,
) -> (LeakPhase, Counts) {
    let server = tcp::count(&[port], Side::Server);
    let client = tcp::count(&[port], Side::Client);
    let row = LeakPhase {
        phase,
        phase_vi,
        server_close_wait: server.close_wait,
        client_fin_wait2: client.fin_wait2,
        client_time_wait: client.time_wait,
        extra_fds: open_fds() as i64 - fds0 as i64,
    };
    (row, server)
}

fn forgetful_server(results: &mut Results) {
    let listener = tcp::fresh_listener();
    let port = listener.local_addr().unwrap().port();
    let fds0 = open_fds();
    let (ready_tx, ready_rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let server = std::thread::spawn(move || {
        // ANCHOR: forgetful
        // A TcpStream closes itself on drop, so to "forget" close() in Rust we
        // have to keep every accepted stream alive somewhere: here, a Vec.
        let mut forgotten: Vec<TcpStream> = Vec::new();
        for _ in 0..LEAK {
            let (mut s, _) = listener.accept().unwrap();
            let mut b = [0u8; 1];
            s.read_exact(&mut b).unwrap();
            s.write_all(&b).unwrap();
            forgotten.push(s); // answered, never closed
        }
        // ANCHOR_END: forgetful
        ready_tx.send(()).unwrap();
        release_rx.recv().unwrap();
        drop(forgotten); // the fix: close them
        listener
    });
    for i in 0..LEAK {
        let mut s = connect_from(2, i, port);
        s.write_all(b"?").unwrap();
        let mut b = [0u8; 1];
        s.read_exact(&mut b).unwrap();
    } // every client stream is dropped (closed) at the end of its iteration
    ready_rx.recv().unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let (leaked, _) = leak_phase("server forgot close()", "server quên close()", port, fds0);
    std::thread::sleep(Duration::from_secs(LEAK_WAIT_S));
    let (later, _) = leak_phase("one second later", "một giây sau", port, fds0);
    release_tx.send(()).unwrap();
    let listener = server.join().unwrap();
    settle(port);
    let (fixed, _) = leak_phase("streams dropped", "đã drop các stream", port, fds0);
    drop(listener);

    results.set("leak.close_wait", leaked.server_close_wait);
    results.set("leak.fin_wait2", leaked.client_fin_wait2);
    results.set("leak.extra_fds", leaked.extra_fds);
    results.set("leak.close_wait_later", later.server_close_wait);
    results.set("leak.fixed_close_wait", fixed.server_close_wait);
    results.set("leak.fixed_extra_fds", fixed.extra_fds);
    results.set("leak.fixed_time_wait", fixed.client_time_wait);
    results.set("leak.rows", vec![leaked, later, fixed]);
}

/// The three short-connection scenarios, and the TIME_WAIT timers of the first one's
/// port, read right after it: every second spent on the others would come off them.
fn short_scenarios(results: &mut Results) {
    let mut rows = Vec::new();
    for closer in [Closer::Client, Closer::Server, Closer::ClientLinger0] {
        let (row, timers) = short_connections(closer);
        if closer == Closer::Client {
            results.set("time_wait.timer_min_s", timers.min);
            results.set("time_wait.timer_max_s", timers.max);
            results.set("time_wait.timers_above_len", timers.above);
        }
        rows.push(row);
    }
    for (name, r) in ["client_first", "server_first", "linger0"]
        .iter()
        .zip(&rows)
    {
        results.set(&format!("short.{name}.client_tw"), r.client_time_wait);
        results.set(&format!("short.{name}.server_tw"), r.server_time_wait);
        results.set(&format!("short.{name}.secs"), r.secs);
    }
    results.set("short.rows", &rows);
}

/// Kernel settings that matter for TIME_WAIT, read from this machine, and the ceiling
/// they put on new connections to one destination (computed, not measured).
fn sysctls(results: &mut Results) {
    let first = |path: &str| tcp::sysctl_numbers(path).first().copied().unwrap_or(0);
    let range = tcp::sysctl_numbers("/proc/sys/net/ipv4/ip_local_port_range");
    results.set(
        "sysctl.tcp_fin_timeout",
        first("/proc/sys/net/ipv4/tcp_fin_timeout"),
    );
    results.set("sysctl.port_low", range[0]);
    results.set("sysctl.port_high", range[1]);
    results.set("sysctl.ephemeral_ports", range[1] - range[0] + 1);
    results.set(
        "sysctl.tcp_tw_reuse",
        first("/proc/sys/net/ipv4/tcp_tw_reuse"),
    );
    results.set(
        "sysctl.tcp_max_tw_buckets",
        first("/proc/sys/net/ipv4/tcp_max_tw_buckets"),
    );
    // Without TIME_WAIT reuse, one client can open at most this many new connections
    // per second to one (address, port).
    results.ratio(
        "computed.max_new_per_sec",
        "sysctl.ephemeral_ports",
        "time_wait.len_s",
    );
}

/// The output tables, in both languages, from the results' paths.
fn tables(results: &mut Results) {
    let mut t = Table::new([
        Label::new("kịch bản", "scenario"),
        Label::new("TIME_WAIT phía client", "client TIME_WAIT"),
        Label::new("TIME_WAIT phía server", "server TIME_WAIT"),
        Label::new("thời gian (s)", "time (s)"),
    ])
    .titled(Label::new(
        "Kết nối ngắn trên 127.0.0.1, theo kịch bản (chỉ socket của cổng thí nghiệm)",
        "Short connections on 127.0.0.1 by scenario (sockets of our port only)",
    ));
    for (vi, en, name) in [
        ("client đóng trước", "client closes first", "client_first"),
        ("server đóng trước", "server closes first", "server_first"),
        ("client SO_LINGER(0)", "client SO_LINGER(0)", "linger0"),
    ] {
        t.row([
            text(vi, en),
            value(format!("short.{name}.client_tw")),
            value(format!("short.{name}.server_tw")),
            value_as(format!("short.{name}.secs"), "fixed(2)"),
        ]);
    }
    results.table(t);

    let mut t = Table::new([
        Label::new("trên máy này", "on this machine"),
        Label::new("giá trị", "value"),
    ])
    .titled(Label::new(
        "Thiết lập của nhân và bộ đếm TIME_WAIT",
        "Kernel settings and TIME_WAIT timers",
    ));
    t.row([same("tcp_fin_timeout (s)"), value("sysctl.tcp_fin_timeout")]);
    t.row([
        text(
            "cổng tạm (ip_local_port_range)",
            "ephemeral ports (ip_local_port_range)",
        ),
        value("sysctl.ephemeral_ports"),
    ]);
    t.row([same("tcp_tw_reuse"), value("sysctl.tcp_tw_reuse")]);
    t.row([
        same("tcp_max_tw_buckets"),
        value("sysctl.tcp_max_tw_buckets"),
    ]);
    t.row([
        text(
            "TIME_WAIT còn lại ít nhất (s)",
            "TIME_WAIT left, lowest (s)",
        ),
        value_as("time_wait.timer_min_s", "fixed(2)"),
    ]);
    t.row([
        text(
            "TIME_WAIT còn lại nhiều nhất (s)",
            "TIME_WAIT left, highest (s)",
        ),
        value_as("time_wait.timer_max_s", "fixed(2)"),
    ]);
    results.table(t);
}

fn main() {
    let mut results = Results::new();
    results.input("params.short", SHORT);
    results.input("params.leak", LEAK);
    results.input("params.leak_wait_s", LEAK_WAIT_S);
    results.input("time_wait.len_s", TIMEWAIT_LEN_S);
    short_scenarios(&mut results);
    forgetful_server(&mut results);
    sysctls(&mut results);
    tables(&mut results);
    results.write();
}

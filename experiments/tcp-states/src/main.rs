//! Networking part 4: who keeps TIME_WAIT after thousands of short connections
//! (client closes first, server closes first, SO_LINGER(0)), and the CLOSE_WAIT
//! plus open file descriptors left by a server that "forgets" to close.

use harness::Results;
use netlab::fds::open_fds;
use netlab::tcp::{self, Counts, Side, State};
use serde::Serialize;
use socket2::SockRef;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Short connections per scenario.
const SHORT: usize = 2000;
/// Connections the forgetful server never closes.
const LEAK: usize = 200;
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
    ms: f64,
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

fn short_connections(closer: Closer) -> (Row, u16) {
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
    for _ in 0..SHORT {
        // ANCHOR: client_short
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
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
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    settle(port);
    let client = tcp::count(&[port], Side::Client);
    let server = tcp::count(&[port], Side::Server);
    let (scenario, scenario_vi) = match closer {
        Closer::Client => ("client closes first", "client đóng trước"),
        Closer::Server => ("server closes first", "server đóng trước"),
        Closer::ClientLinger0 => ("client SO_LINGER(0)", "client SO_LINGER(0)"),
    };
    let row = Row {
        scenario,
        scenario_vi,
        connections: SHORT,
        client_time_wait: client.time_wait,
        server_time_wait: server.time_wait,
        other: client.total + server.total - client.time_wait - server.time_wait,
        ms,
    };
    (row, port)
}

/// Seconds left on the TIME_WAIT timers of `port`: (min, max).
fn time_wait_timers(port: u16) -> (f64, f64) {
    let secs: Vec<f64> = tcp::entries(&[port], Side::Both)
        .iter()
        .filter(|e| e.state == State::TimeWait)
        .map(|e| e.timer_secs())
        .collect();
    let min = secs.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = secs.iter().cloned().fold(0.0, f64::max);
    (min, max)
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
    for _ in 0..LEAK {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.write_all(b"?").unwrap();
        let mut b = [0u8; 1];
        s.read_exact(&mut b).unwrap();
    } // every client stream is dropped (closed) at the end of its iteration
    ready_rx.recv().unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let (leaked, _) = leak_phase("server forgot close()", "server quên close()", port, fds0);
    std::thread::sleep(Duration::from_secs(1));
    let (later, _) = leak_phase("one second later", "một giây sau", port, fds0);
    release_tx.send(()).unwrap();
    let listener = server.join().unwrap();
    settle(port);
    let (fixed, _) = leak_phase("streams dropped", "đã drop các stream", port, fds0);
    drop(listener);

    println!();
    println!("A server that never closes: {LEAK} clients connect, get an answer, close.");
    println!(
        "  {:<24} {:>11} {:>10} {:>10} {:>10}",
        "phase", "CLOSE_WAIT", "FIN_WAIT2", "TIME_WAIT", "extra fds"
    );
    for r in [&leaked, &later, &fixed] {
        println!(
            "  {:<24} {:>11} {:>10} {:>10} {:>10}",
            r.phase, r.server_close_wait, r.client_fin_wait2, r.client_time_wait, r.extra_fds
        );
    }
    results.set("leak.connections", LEAK);
    results.set("leak.close_wait", leaked.server_close_wait);
    results.set("leak.fin_wait2", leaked.client_fin_wait2);
    results.set("leak.extra_fds", leaked.extra_fds);
    results.set("leak.close_wait_later", later.server_close_wait);
    results.set("leak.fixed_close_wait", fixed.server_close_wait);
    results.set("leak.fixed_extra_fds", fixed.extra_fds);
    results.set("leak.fixed_time_wait", fixed.client_time_wait);
    results.set("leak.rows", vec![leaked, later, fixed]);
}

fn main() {
    let mut results = Results::new();
    results.set("params.short", SHORT);
    results.set("params.leak", LEAK);
    results.set("params.leak_wait_s", 1);

    let mut rows = Vec::new();
    let (mut tw_min, mut tw_max) = (0.0, 0.0);
    for closer in [Closer::Client, Closer::Server, Closer::ClientLinger0] {
        let (row, port) = short_connections(closer);
        if closer == Closer::Client {
            // Read the timers right away: every second spent on the other
            // scenarios would come off them.
            (tw_min, tw_max) = time_wait_timers(port);
        }
        rows.push(row);
    }

    println!("{SHORT} short connections per scenario on 127.0.0.1 (sockets of our port only):");
    println!(
        "  {:<22} {:>17} {:>17} {:>6} {:>9}",
        "scenario", "client TIME_WAIT", "server TIME_WAIT", "other", "time"
    );
    for r in &rows {
        println!(
            "  {:<22} {:>17} {:>17} {:>6} {:>6.0} ms",
            r.scenario, r.client_time_wait, r.server_time_wait, r.other, r.ms
        );
    }
    println!(
        "  TIME_WAIT timers left on the first port: {tw_min:.1} s to {tw_max:.1} s \
         (TIME_WAIT lasts {TIMEWAIT_LEN_S} s)"
    );
    results.set("short.client_first.client_tw", rows[0].client_time_wait);
    results.set("short.client_first.server_tw", rows[0].server_time_wait);
    results.set("short.server_first.client_tw", rows[1].client_time_wait);
    results.set("short.server_first.server_tw", rows[1].server_time_wait);
    results.set("short.linger0.client_tw", rows[2].client_time_wait);
    results.set("short.linger0.server_tw", rows[2].server_time_wait);
    results.set(
        "short.client_first.share",
        rows[0].client_time_wait as f64 / SHORT as f64,
    );
    results.set(
        "short.server_first.share",
        rows[1].server_time_wait as f64 / SHORT as f64,
    );
    results.set("short.rows", &rows);
    results.set("time_wait.timer_max_s", tw_max);
    results.set("time_wait.timer_min_s", tw_min);
    results.set("time_wait.len_s", TIMEWAIT_LEN_S);

    forgetful_server(&mut results);

    // Kernel settings that matter for TIME_WAIT, read from this machine.
    let fin_timeout = tcp::sysctl_numbers("/proc/sys/net/ipv4/tcp_fin_timeout");
    let range = tcp::sysctl_numbers("/proc/sys/net/ipv4/ip_local_port_range");
    let tw_reuse = tcp::sysctl_numbers("/proc/sys/net/ipv4/tcp_tw_reuse");
    let tw_buckets = tcp::sysctl_numbers("/proc/sys/net/ipv4/tcp_max_tw_buckets");
    let ports = range[1] - range[0] + 1;
    results.set("sysctl.tcp_fin_timeout", fin_timeout[0]);
    results.set("sysctl.port_low", range[0]);
    results.set("sysctl.port_high", range[1]);
    results.set("sysctl.ephemeral_ports", ports);
    results.set("sysctl.tcp_tw_reuse", tw_reuse[0]);
    results.set("sysctl.tcp_max_tw_buckets", tw_buckets[0]);
    // Computed, not measured: without TIME_WAIT reuse, one client can open at
    // most this many new connections per second to one (address, port).
    let per_sec = ports as f64 / TIMEWAIT_LEN_S as f64;
    results.set("computed.max_new_per_sec", per_sec);
    println!();
    println!("Kernel settings on this machine:");
    println!(
        "  tcp_fin_timeout       {:>8} s   (FIN_WAIT2 of orphaned sockets, not TIME_WAIT)",
        fin_timeout[0]
    );
    println!(
        "  ip_local_port_range   {:>8}     ({} to {})",
        ports, range[0], range[1]
    );
    println!("  tcp_tw_reuse          {:>8}", tw_reuse[0]);
    println!("  tcp_max_tw_buckets    {:>8}", tw_buckets[0]);
    println!(
        "  computed: {ports} ports / {TIMEWAIT_LEN_S} s = {per_sec:.0} new connections per second to one destination"
    );
    results.write();
}

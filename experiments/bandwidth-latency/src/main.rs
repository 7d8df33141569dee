//! Networking part 6: bandwidth is not latency. Loopback throughput (large
//! writes) and round-trip time (1-byte ping-pong) measured separately, the
//! bandwidth-delay product computed from them, and throughput collapsing as the
//! socket buffers (SO_SNDBUF / SO_RCVBUF) shrink. Figures at real-world RTTs are
//! computed from the measured windows, not measured.

use harness::{Results, Summary};
use serde::Serialize;
use socket2::{Domain, Protocol, Socket, Type};
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// Size of one write() in the throughput test.
const CHUNK: usize = 1 << 20;
/// Bytes sent per throughput run with default (auto-tuned) buffers.
const TOTAL: usize = 512 << 20;
/// Bytes sent at most per run of the buffer sweep...
const SWEEP_TOTAL: usize = 256 << 20;
/// ...and time allowed per run: slow small-buffer runs stop early.
const SWEEP_CAP: Duration = Duration::from_millis(200);
/// Buffer sizes of the sweep, set with setsockopt on both ends.
const SIZES: [usize; 11] = [
    4 << 10,
    8 << 10,
    16 << 10,
    32 << 10,
    64 << 10,
    128 << 10,
    256 << 10,
    512 << 10,
    1 << 20,
    2 << 20,
    4 << 20,
];
/// Real-world round-trip times for the computed figures, in milliseconds.
const RTTS_MS: [f64; 3] = [1.0, 20.0, 150.0];

struct Run {
    bytes: usize,
    secs: f64,
    rcvbuf: usize,
    sndbuf: usize,
}

/// Send up to `total` bytes from a client socket to an accepted socket on
/// 127.0.0.1 and time it until the receiver has read the last byte.
// ANCHOR: throughput
fn transfer(bufsize: Option<usize>, total: usize, cap: Duration) -> Run {
    let listener = Socket::new(Domain::IPV4, Type::STREAM, Some(Protocol::TCP)).unwrap();
    let client = Socket::new(Domain::IPV4, Type::STREAM, Some(Protocol::TCP)).unwrap();
    if let Some(size) = bufsize {
        // Set before listen()/connect(): accepted sockets inherit the
        // listener's buffers, and the window scale is fixed at the handshake.
        for s in [&listener, &client] {
            s.set_recv_buffer_size(size).unwrap();
            s.set_send_buffer_size(size).unwrap();
        }
    }
    listener
        .bind(&SocketAddr::from((Ipv4Addr::LOCALHOST, 0)).into())
        .unwrap();
    listener.listen(1).unwrap();
    let addr = listener.local_addr().unwrap();
    client.connect(&addr).unwrap();
    let (server, _) = listener.accept().unwrap();
    let rcvbuf = server.recv_buffer_size().unwrap();
    let sndbuf = client.send_buffer_size().unwrap();

    let receiver = std::thread::spawn(move || {
        let mut s = TcpStream::from(server);
        let mut buf = vec![0u8; CHUNK];
        let mut got = 0usize;
        loop {
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => got += n,
            }
        }
        (got, Instant::now())
    });
    let mut tx = TcpStream::from(client);
    let data = vec![0x5au8; CHUNK];
    let t0 = Instant::now();
    let mut sent = 0;
    while sent < total && t0.elapsed() < cap {
        tx.write_all(&data).unwrap();
        sent += CHUNK;
    }
    drop(tx); // FIN: the receiver reads to EOF
    let (got, end) = receiver.join().unwrap();
    Run {
        bytes: got,
        secs: (end - t0).as_secs_f64(),
        rcvbuf,
        sndbuf,
    }
}
// ANCHOR_END: throughput

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Round-trip time: one byte there, one byte back, per-event timing.
fn rtt(n: usize) -> Summary {
    let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let addr = listener.local_addr().unwrap();
    let echo = std::thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        s.set_nodelay(true).unwrap();
        let mut b = [0u8; 1];
        while s.read_exact(&mut b).is_ok() {
            if s.write_all(&b).is_err() {
                break;
            }
        }
    });
    // ANCHOR: rtt
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_nodelay(true).unwrap(); // Rust's default leaves Nagle on
    let mut b = [7u8; 1];
    for _ in 0..1000 {
        s.write_all(&b).unwrap();
        s.read_exact(&mut b).unwrap();
    }
    let rtt = harness::events(n, || {
        let t = Instant::now();
        s.write_all(&b).unwrap();
        s.read_exact(&mut b).unwrap();
        t.elapsed()
    });
    // ANCHOR_END: rtt
    drop(s);
    echo.join().unwrap();
    rtt
}

#[derive(Serialize)]
struct SweepRow {
    size: usize,
    rcvbuf: usize,
    sndbuf: usize,
    mb_per_s: f64,
    /// Computed, not measured: window / loopback RTT, in MB/s.
    loopback_limit: f64,
    /// Computed, not measured: window / RTT at 1, 20 and 150 ms, in MB/s.
    at_1ms: f64,
    at_20ms: f64,
    at_150ms: f64,
}

#[derive(Serialize)]
struct BdpRow {
    rtt_ms: f64,
    window_bytes: f64,
    max_window_mb_per_s: f64,
}

fn main() {
    let mut results = Results::new();
    let reps = harness::pick(5, 2);
    let sweep_reps = harness::pick(3, 2);
    results.set("params.chunk", CHUNK);
    results.set("params.total", TOTAL);
    results.set("params.sweep_total", SWEEP_TOTAL);
    results.set("params.sweep_cap_ms", SWEEP_CAP.as_millis() as u64);
    results.set("params.rtts_ms", RTTS_MS);

    // 1. Throughput with the kernel's auto-tuned buffers.
    transfer(None, 64 << 20, Duration::from_secs(2)); // warm-up
    let runs: Vec<Run> = (0..reps)
        .map(|_| transfer(None, TOTAL, Duration::from_secs(5)))
        .collect();
    let bps = median(runs.iter().map(|r| r.bytes as f64 / r.secs).collect());
    results.set("throughput.bytes_per_s", bps);
    results.set("throughput.gb_per_s", bps / 1e9);
    results.set("throughput.runs", runs.len());
    results.set("throughput.default_rcvbuf", runs[0].rcvbuf);
    results.set("throughput.default_sndbuf", runs[0].sndbuf);

    // 2. Round-trip time.
    let rtt = rtt(harness::pick(20_000, 4_000));
    let rtt_s = rtt.median / 1e9;
    results.set("rtt", &rtt);

    // 3. Bandwidth-delay product (computed from the two measurements).
    // ANCHOR: bdp
    let bdp = bps * rtt_s; // bytes in flight needed to keep the pipe full
    // ANCHOR_END: bdp
    results.set("bdp_bytes", bdp);

    println!("Loopback 127.0.0.1, 2 threads, TCP_NODELAY on:");
    println!(
        "  throughput (auto-tuned buffers, {} MiB in {} MiB writes, median of {reps}): {:.2} GB/s",
        TOTAL >> 20,
        CHUNK >> 20,
        bps / 1e9
    );
    println!(
        "  RTT, 1-byte ping-pong (median of {}):                               {:.1} µs",
        rtt.n,
        rtt.median / 1e3
    );
    println!(
        "  bandwidth-delay product = throughput x RTT:                            {:.1} KB",
        bdp / 1e3
    );

    // 4. Throughput against socket buffer size.
    println!();
    println!("Throughput against SO_SNDBUF = SO_RCVBUF (measured), and window / RTT (computed):");
    println!(
        "  {:>9} {:>10} {:>12} {:>12} | {:>11} {:>11} {:>11}",
        "buffer", "kernel", "measured", "w/RTT(lo)", "@1 ms", "@20 ms", "@150 ms"
    );
    let mut rows = Vec::new();
    for &size in &SIZES {
        let runs: Vec<Run> = (0..sweep_reps)
            .map(|_| transfer(Some(size), SWEEP_TOTAL, SWEEP_CAP))
            .collect();
        let bps = median(runs.iter().map(|r| r.bytes as f64 / r.secs).collect());
        // ANCHOR: computed
        // Computed, not measured: at most one window per round trip.
        let at = |rtt_ms: f64| size as f64 / (rtt_ms / 1e3) / 1e6; // MB/s
        // ANCHOR_END: computed
        let row = SweepRow {
            size,
            rcvbuf: runs[0].rcvbuf,
            sndbuf: runs[0].sndbuf,
            mb_per_s: bps / 1e6,
            loopback_limit: size as f64 / rtt_s / 1e6,
            at_1ms: at(RTTS_MS[0]),
            at_20ms: at(RTTS_MS[1]),
            at_150ms: at(RTTS_MS[2]),
        };
        println!(
            "  {:>6} KiB {:>6} KiB {:>7.0} MB/s {:>8.0} MB/s | {:>6.1} MB/s {:>6.2} MB/s {:>6.3} MB/s",
            size >> 10,
            row.rcvbuf >> 10,
            row.mb_per_s,
            row.loopback_limit,
            row.at_1ms,
            row.at_20ms,
            row.at_150ms
        );
        rows.push(row);
    }
    let first = &rows[0];
    let last = &rows[rows.len() - 1];
    results.set("sweep_first", first);
    results.set("sweep_last", last);
    results.set("collapse", last.mb_per_s / first.mb_per_s);
    results.set("default_vs_smallest", bps / 1e6 / first.mb_per_s);
    results.set("smallest_window_rtt_limit", first.size as f64 / rtt_s / 1e6);
    results.set("smallest_fit", first.mb_per_s / first.loopback_limit);
    let peak = rows.iter().map(|r| r.mb_per_s).fold(0.0, f64::max);
    results.set("peak_mb_per_s", peak);
    results.set("peak_vs_smallest", peak / first.mb_per_s);
    let i64k = SIZES.iter().position(|&s| s == 64 << 10).unwrap();
    results.set("sweep_64k", &rows[i64k]);
    results.set("mid_vs_default", rows[i64k].mb_per_s / (bps / 1e6));

    // 5. Window needed at real RTTs for the measured bandwidth, and what the
    // kernel's largest auto-tuned receive buffer allows (both computed).
    let rmem = netlab::tcp::sysctl_numbers("/proc/sys/net/ipv4/tcp_rmem");
    let rmem_max = rmem[2] as f64;
    results.set("tcp_rmem_max", rmem_max);
    let bdp_rows: Vec<BdpRow> = RTTS_MS
        .iter()
        .map(|&ms| BdpRow {
            rtt_ms: ms,
            window_bytes: bps * ms / 1e3,
            max_window_mb_per_s: rmem_max / (ms / 1e3) / 1e6,
        })
        .collect();
    println!();
    println!(
        "Computed for the measured {:.2} GB/s at real RTTs (tcp_rmem max = {:.0} MiB):",
        bps / 1e9,
        rmem_max / (1 << 20) as f64
    );
    for r in &bdp_rows {
        println!(
            "  RTT {:>5.0} ms: window needed {:>9.1} MB; tcp_rmem max allows {:>8.1} MB/s",
            r.rtt_ms,
            r.window_bytes / 1e6,
            r.max_window_mb_per_s
        );
    }
    results.set("bdp_at", &bdp_rows);
    results.set("sweep", &rows);
    results.write();
}

//! Networking part 6: bandwidth is not latency. Loopback throughput (large
//! writes) and round-trip time (1-byte ping-pong) measured separately, the
//! bandwidth-delay product computed from them, and throughput collapsing as the
//! socket buffers (SO_SNDBUF / SO_RCVBUF) shrink, with the windows the kernel
//! reports (TCP_INFO). Figures at real-world RTTs are computed, not measured.

mod tcpinfo;

use harness::declare::{Label, Table, text, value, value_as};
use harness::{Results, Summary};
use serde::Serialize;
use socket2::{Domain, Protocol, SockRef, Socket, Type};
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// Size of one write().
const CHUNK: usize = 1 << 20;
/// Bytes sent at most per transfer...
const TOTAL: usize = 256 << 20;
/// ...and time allowed per transfer: slow small-buffer runs stop early.
const CAP: Duration = Duration::from_millis(200);
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
const RTTS_MS: [u32; 3] = [1, 20, 150];

/// One transfer: bytes and seconds, the receive buffer the kernel reported before
/// and after it, and what the sender's TCP_INFO said while it ran.
struct Run {
    bytes: usize,
    secs: f64,
    rcvbuf: usize,
    rcvbuf_after: usize,
    /// The receiver's advertised window as the sender saw it (median of samples).
    snd_wnd: f64,
    /// The congestion window, in bytes (median of samples).
    cwnd: f64,
    /// Share of the sending time the kernel counted as limited by the receive window.
    rwnd_limited: f64,
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
        let grown = SockRef::from(&s).recv_buffer_size().unwrap(); // auto-tuning
        (got, Instant::now(), grown)
    });
    let mut tx = TcpStream::from(client);
    tx.set_nodelay(true).unwrap();
    let data = vec![0x5au8; CHUNK];
    let mut seen = Vec::new(); // what TCP_INFO says after each write
    let t0 = Instant::now();
    let mut sent = 0;
    while sent < total && t0.elapsed() < cap {
        tx.write_all(&data).unwrap();
        sent += CHUNK;
        seen.push(tcpinfo::get(&tx));
    }
    let end = tcpinfo::get(&tx);
    drop(tx); // FIN: the receiver reads to EOF
    let (got, done, rcvbuf_after) = receiver.join().unwrap();
    // ANCHOR_END: throughput
    Run {
        bytes: got,
        secs: (done - t0).as_secs_f64(),
        rcvbuf,
        rcvbuf_after,
        snd_wnd: median(seen.iter().map(|i| i.snd_wnd as f64).collect()),
        cwnd: median(seen.iter().map(|i| i.cwnd_bytes()).collect()),
        rwnd_limited: end.rwnd_limited_share(),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
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

/// One configuration's transfers, summed up: medians over the repetitions.
#[derive(Serialize)]
struct Row {
    size: usize,
    rcvbuf: f64,
    rcvbuf_after: f64,
    bytes_per_s: f64,
    snd_wnd: f64,
    cwnd: f64,
    rwnd_limited: f64,
    /// Computed, not measured: size / RTT at 1, 20 and 150 ms, in bytes per second.
    at_1ms: f64,
    at_20ms: f64,
    at_150ms: f64,
}

fn row(size: usize, runs: &[Run]) -> Row {
    let m = |f: &dyn Fn(&Run) -> f64| median(runs.iter().map(f).collect());
    // ANCHOR: computed
    // Computed, not measured: at most one window per round trip.
    let at = |rtt_ms: u32| size as f64 / (rtt_ms as f64 / 1e3); // bytes per second
    // ANCHOR_END: computed
    Row {
        size,
        rcvbuf: m(&|r| r.rcvbuf as f64),
        rcvbuf_after: m(&|r| r.rcvbuf_after as f64),
        bytes_per_s: m(&|r| r.bytes as f64 / r.secs),
        snd_wnd: m(&|r| r.snd_wnd),
        cwnd: m(&|r| r.cwnd),
        rwnd_limited: m(&|r| r.rwnd_limited),
        at_1ms: at(RTTS_MS[0]),
        at_20ms: at(RTTS_MS[1]),
        at_150ms: at(RTTS_MS[2]),
    }
}

/// Every buffer size and the auto-tuned buffers (`None`), `reps` transfers each, the
/// configurations taking turns in a rotated order so that load hits them alike.
fn sweep(reps: usize) -> (Row, Vec<Row>) {
    let configs: Vec<Option<usize>> = std::iter::once(None)
        .chain(SIZES.iter().map(|&s| Some(s)))
        .collect();
    transfer(None, 64 << 20, Duration::from_secs(1)); // warm-up
    let mut runs: Vec<Vec<Run>> = configs.iter().map(|_| Vec::new()).collect();
    for rep in 0..reps {
        for k in 0..configs.len() {
            let i = (rep * 5 + k) % configs.len();
            runs[i].push(transfer(configs[i], TOTAL, CAP));
        }
    }
    let auto = row(0, &runs[0]);
    let rows = SIZES
        .iter()
        .zip(&runs[1..])
        .map(|(&s, r)| row(s, r))
        .collect();
    (auto, rows)
}

/// A buffer size as a results key: `k4` for 4 KiB, `m1` for 1 MiB.
fn buf_key(size: usize) -> String {
    if size >= 1 << 20 {
        format!("m{}", size >> 20)
    } else {
        format!("k{}", size >> 10)
    }
}

fn main() {
    let mut results = Results::new();
    let reps = harness::pick(5, 2);
    results.input("params.chunk", CHUNK);
    results.input("params.total", TOTAL);
    results.input("params.cap_ms", CAP.as_millis() as u64);
    results.input("params.reps", reps);
    results.input("params.rtts_ms", RTTS_MS);

    let rtt = rtt(harness::pick(20_000, 4_000));
    results.set("rtt_s", rtt.median / 1e9);
    results.set("rtt", &rtt);
    let (auto, rows) = sweep(reps);
    results.set("throughput", &auto);
    let i64k = SIZES.iter().position(|&s| s == 64 << 10).unwrap();
    results.set("sweep_first", &rows[0]);
    results.set("sweep_64k", &rows[i64k]);
    results.set("sweep_last", &rows[rows.len() - 1]);
    results.set("sweep", &rows);
    for (size, r) in SIZES.iter().zip(&rows) {
        results.set(&format!("buf.{}", buf_key(*size)), r);
    }
    results.set(
        "tcp_rmem_max",
        netlab::tcp::sysctl_numbers("/proc/sys/net/ipv4/tcp_rmem")
            .get(2)
            .copied(),
    );
    derived(&mut results);
    tables(&mut results);
    results.write();
}

/// Every figure the article computes from two others.
fn derived(results: &mut Results) {
    // ANCHOR: bdp
    // bytes in flight needed to keep the pipe full: bandwidth x RTT
    results.product("bdp_bytes", "throughput.bytes_per_s", "rtt_s");
    // ANCHOR_END: bdp
    let ratios = [
        (
            "default_vs_smallest",
            "throughput.bytes_per_s",
            "sweep_first.bytes_per_s",
        ),
        (
            "mid_vs_smallest",
            "sweep_64k.bytes_per_s",
            "sweep_first.bytes_per_s",
        ),
        (
            "mid_vs_default",
            "sweep_64k.bytes_per_s",
            "throughput.bytes_per_s",
        ),
        (
            "auto_buffer_vs_64k",
            "throughput.rcvbuf_after",
            "sweep_64k.rcvbuf",
        ),
        // window / RTT for the smallest buffer, and how much of it was measured
        ("smallest_limit", "sweep_first.size", "rtt_s"),
        ("smallest_fit", "sweep_first.bytes_per_s", "smallest_limit"),
        (
            "smallest_cwnd_over_wnd",
            "sweep_first.cwnd",
            "sweep_first.snd_wnd",
        ),
    ];
    for (key, a, b) in ratios {
        results.ratio(key, a, b);
    }
    // How much of a buffer the kernel advertised as window, small and large.
    results.share(
        "window_share_small",
        "sweep_first.snd_wnd",
        "sweep_first.rcvbuf",
    );
    results.share("window_share_64k", "sweep_64k.snd_wnd", "sweep_64k.rcvbuf");
    // At real RTTs (inputs): the window that fills the measured bandwidth, and what
    // the largest auto-tuned receive buffer allows at most.
    for ms in RTTS_MS {
        let key = format!("real.r{ms:03}ms");
        results.input(&format!("{key}.rtt_s"), ms as f64 / 1e3);
        results.product(
            &format!("{key}.window"),
            "throughput.bytes_per_s",
            &format!("{key}.rtt_s"),
        );
        results.ratio(
            &format!("{key}.rmem_cap"),
            "tcp_rmem_max",
            &format!("{key}.rtt_s"),
        );
    }
}

/// The output tables, in both languages, from the results' paths.
fn tables(results: &mut Results) {
    let mut t = Table::new([
        Label::new("trên loopback", "on loopback"),
        Label::new("đo được", "measured"),
    ])
    .titled(Label::new(
        "Băng thông, RTT và tích của chúng",
        "Bandwidth, RTT and their product",
    ));
    t.row([
        text(
            "thông lượng, bộ đệm tự điều chỉnh (mỗi giây)",
            "throughput, auto-tuned buffers (per second)",
        ),
        value_as("throughput.bytes_per_s", "bytes"),
    ]);
    t.row([
        text("RTT, một byte đi và về", "RTT, one byte there and back"),
        value("rtt"),
    ]);
    t.row([
        text("BDP = thông lượng × RTT", "BDP = throughput × RTT"),
        value_as("bdp_bytes", "bytes"),
    ]);
    results.table(t);

    let mut t = Table::new([
        Label::new("SO_SNDBUF = SO_RCVBUF", "SO_SNDBUF = SO_RCVBUF"),
        Label::new("nhân báo", "kernel reports"),
        Label::new("thông lượng (mỗi giây)", "throughput (per second)"),
        Label::new("cửa sổ nhận quảng bá", "advertised receive window"),
        Label::new("cửa sổ tắc nghẽn", "congestion window"),
        Label::new(
            "thời gian bị cửa sổ nhận chặn",
            "time limited by the receive window",
        ),
    ])
    .titled(Label::new(
        "Thông lượng theo bộ đệm socket (đo thật)",
        "Throughput by socket buffer (measured)",
    ));
    let mut line = |label: harness::declare::Cell, key: &str, rcvbuf: &str| {
        t.row([
            label,
            value_as(format!("{key}.{rcvbuf}"), "bytes"),
            value_as(format!("{key}.bytes_per_s"), "bytes"),
            value_as(format!("{key}.snd_wnd"), "bytes"),
            value_as(format!("{key}.cwnd"), "bytes"),
            value_as(format!("{key}.rwnd_limited"), "percent"),
        ]);
    };
    for size in SIZES {
        let key = format!("buf.{}", buf_key(size));
        line(value_as(format!("{key}.size"), "bytes"), &key, "rcvbuf");
    }
    // The auto-tuned buffers: as large as they grew by the end of the transfer.
    line(
        text("tự điều chỉnh (cuối lần truyền)", "auto-tuned (at the end)"),
        "throughput",
        "rcvbuf_after",
    );
    results.table(t);
}

//! Networking part 1: what a TCP handshake costs on loopback, a new connection
//! per request against one reused connection (raw std TCP and HTTP/1.1 with
//! hyper), and the socket states of our ports read from /proc/net/tcp.

use bytes::Bytes;
use harness::declare::{Label, Table, same, text, value};
use harness::{Results, Summary};
use http_body_util::{BodyExt, Empty};
use hyper_util::client::legacy::{Client, connect::HttpConnector};
use hyper_util::rt::TokioExecutor;
use netlab::tcp::{self, Side};
use serde::Serialize;
use serde_json::json;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Size of one request and of one response in the raw TCP ping-pong.
const MSG: usize = 64;
/// Connections held open at once for the socket-state snapshot.
const HELD: usize = 100;
/// Round-trip times of real paths, assumed (not measured) for the arithmetic:
/// same data centre, same region, across an ocean.
const EXAMPLE_RTT_MS: [u32; 3] = [1, 20, 80];
/// Untimed connections that warm up the server-thread loop.
const RAW_WARMUP: usize = 50;
/// TCP_TIMEWAIT_LEN: a constant compiled into the Linux kernel (60 s).
const TIMEWAIT_LEN_S: u64 = 60;

/// A raw TCP server on 127.0.0.1 that answers every MSG-byte request with MSG
/// bytes. Its single thread serves connections one after another, inline:
/// no thread is spawned per connection, so a new connection costs only TCP.
struct EchoServer {
    addr: SocketAddr,
    /// Connections fully served (the client closed and the server closed).
    done: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

impl EchoServer {
    fn start() -> EchoServer {
        let listener = tcp::fresh_listener();
        let addr = listener.local_addr().unwrap();
        let done = Arc::new(AtomicUsize::new(0));
        let done2 = done.clone();
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut s) = stream else { continue };
                s.set_nodelay(true).unwrap();
                let mut buf = [0u8; MSG];
                // Serve until the client closes; a message of '!' bytes is
                // the stop signal sent by Drop.
                while s.read_exact(&mut buf).is_ok() {
                    if s.write_all(&buf).is_err() {
                        break;
                    }
                }
                if buf[0] == b'!' {
                    return;
                }
                drop(s);
                done2.fetch_add(1, Ordering::SeqCst);
            }
        });
        EchoServer {
            addr,
            done,
            thread: Some(thread),
        }
    }
}

impl Drop for EchoServer {
    fn drop(&mut self) {
        // Tell the serving thread to return, then join it.
        if let Ok(mut s) = TcpStream::connect(self.addr) {
            let _ = s.write_all(&[b'!'; MSG]);
            let mut buf = [0u8; MSG];
            let _ = s.read_exact(&mut buf);
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

// ANCHOR: exchange
/// One request/response round trip on an open connection.
fn exchange(s: &mut TcpStream, buf: &mut [u8; MSG]) {
    s.write_all(buf).unwrap();
    s.read_exact(buf).unwrap();
}
// ANCHOR_END: exchange

/// The kernel-only samples: the phases of each new connection, and the exchange on the
/// long-lived pair timed right after it (ns).
#[derive(Default)]
struct KernelSamples {
    connect: Vec<f64>,
    accept: Vec<f64>,
    exchange: Vec<f64>,
    close: Vec<f64>,
    new: Vec<f64>,
    reused: Vec<f64>,
}

/// Kernel-only cost: client and server sockets driven by ONE thread. On
/// loopback `connect()` completes inside the kernel (the listener's backlog
/// finishes the handshake), `accept()` then returns at once, and every write
/// is delivered before it returns, so no thread ever sleeps or waits for the
/// scheduler. What is left is the CPU work of TCP itself, which machine load
/// slows down for both cases alike. New and reused samples alternate A B A B.
fn kernel_samples(n: usize) -> KernelSamples {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let addr = listener.local_addr().unwrap();
    let mut buf = [b'k'; MSG];

    // The long-lived pair for the reused case.
    let mut conn = TcpStream::connect(addr).unwrap();
    let mut peer = listener.accept().unwrap().0;
    conn.set_nodelay(true).unwrap();
    peer.set_nodelay(true).unwrap();

    // ANCHOR: kernel_round
    /// One request and its response, both ends driven by this thread.
    fn round(client: &mut TcpStream, server: &mut TcpStream, buf: &mut [u8; MSG]) {
        client.write_all(buf).unwrap(); // delivered to the server's queue
        server.read_exact(buf).unwrap(); // already there: no sleep
        server.write_all(buf).unwrap();
        client.read_exact(buf).unwrap();
    }
    // ANCHOR_END: kernel_round

    let mut k = KernelSamples::default();
    let warm = harness::pick(200, 50);
    for i in 0..warm + n {
        // ANCHOR: kernel_new
        let t0 = Instant::now();
        // socket(), then SYN, SYN-ACK, ACK: on loopback the kernel also creates
        // the server's socket for this connection before connect() returns.
        let mut c = TcpStream::connect(addr).unwrap();
        let t1 = Instant::now();
        let mut s = listener.accept().unwrap().0; // hands over that socket
        c.set_nodelay(true).unwrap();
        s.set_nodelay(true).unwrap();
        let t2 = Instant::now();
        round(&mut c, &mut s, &mut buf);
        let t3 = Instant::now();
        drop(c); // client closes first: FIN, ACK...
        drop(s); // ...server's FIN, ACK: the client keeps TIME_WAIT
        let t4 = Instant::now();
        // ANCHOR_END: kernel_new

        let t5 = Instant::now();
        round(&mut conn, &mut peer, &mut buf);
        let t6 = Instant::now();
        if i >= warm {
            let ns = |a: Instant, b: Instant| (b - a).as_nanos() as f64;
            k.connect.push(ns(t0, t1));
            k.accept.push(ns(t1, t2));
            k.exchange.push(ns(t2, t3));
            k.close.push(ns(t3, t4));
            k.new.push(ns(t0, t4));
            k.reused.push(ns(t5, t6));
        }
    }
    k
}

fn kernel_only(results: &mut Results, n: usize) {
    let k = kernel_samples(n);
    for (key, samples) in [
        ("kernel.connect", k.connect),
        ("kernel.accept", k.accept),
        ("kernel.exchange", k.exchange),
        ("kernel.close", k.close),
        ("kernel.new_conn", k.new),
        ("kernel.reused", k.reused),
    ] {
        results.set(key, Summary::from_ns(samples));
    }
    results.ratio("kernel.ratio", "kernel.new_conn", "kernel.reused");
    results.difference("kernel.extra", "kernel.new_conn", "kernel.reused");
    results.share("kernel.connect_share", "kernel.connect", "kernel.new_conn");
    results.share("kernel.accept_share", "kernel.accept", "kernel.new_conn");
    results.share("kernel.close_share", "kernel.close", "kernel.new_conn");
    results.ratio(
        "kernel.close_over_exchange",
        "kernel.close",
        "kernel.exchange",
    );
    let median = |key: &str| results.get(key).and_then(|v| v["median"].as_f64());
    let bar = |en: &str, vi: &str, key: &str| json!({"en": en, "vi": vi, "median_ns": median(key)});
    let bars = vec![
        bar("connect() only", "chỉ connect()", "kernel.connect"),
        bar(
            "new connection per request",
            "kết nối mới mỗi request",
            "kernel.new_conn",
        ),
        bar("reused connection", "tái dùng kết nối", "kernel.reused"),
    ];
    results.set("kernel.bars", bars);
}

/// What a real network adds: a new connection pays one more round trip. The RTTs
/// are inputs (assumptions for the arithmetic), compared with the loopback extra.
fn computed(results: &mut Results) {
    for ms in EXAMPLE_RTT_MS {
        let row = format!("computed.rows.r{ms:02}ms");
        results.input_duration(&format!("{row}.rtt"), ms as f64 * 1e6);
        results.ratio(
            &format!("{row}.over_extra"),
            &format!("{row}.rtt"),
            "kernel.extra",
        );
    }
}

/// The server-thread samples (ns).
#[derive(Default)]
struct RawSamples {
    connect: Vec<f64>,
    first: Vec<f64>,
    new: Vec<f64>,
    reused: Vec<f64>,
}

/// Raw TCP with a server thread: new-connection vs reused-connection requests,
/// interleaved so that both see the same machine noise.
fn raw_samples(fresh: &EchoServer, kept: &EchoServer, n: usize) -> RawSamples {
    let mut buf = [b'a'; MSG];
    // Warm-up: a few of each.
    for _ in 0..RAW_WARMUP {
        let mut s = TcpStream::connect(fresh.addr).unwrap();
        s.set_nodelay(true).unwrap();
        exchange(&mut s, &mut buf);
    }

    // ANCHOR: reused
    let mut conn = TcpStream::connect(kept.addr).unwrap();
    conn.set_nodelay(true).unwrap(); // std default: Nagle on
    // ANCHOR_END: reused

    let mut r = RawSamples::default();
    for _ in 0..n {
        let served = fresh.done.load(Ordering::SeqCst);
        // ANCHOR: new_conn
        let t0 = Instant::now();
        let mut s = TcpStream::connect(fresh.addr).unwrap(); // SYN, SYN-ACK, ACK
        let t1 = Instant::now();
        s.set_nodelay(true).unwrap();
        exchange(&mut s, &mut buf);
        let t2 = Instant::now();
        drop(s); // we close first: our side keeps the TIME_WAIT
        // ANCHOR_END: new_conn
        r.connect.push((t1 - t0).as_nanos() as f64);
        r.first.push((t2 - t1).as_nanos() as f64);
        r.new.push((t2 - t0).as_nanos() as f64);
        // Untimed: let the server finish closing that connection, so that its
        // clean-up does not compete with the next measurement for the CPU.
        let deadline = Instant::now() + Duration::from_millis(100);
        while fresh.done.load(Ordering::SeqCst) == served && Instant::now() < deadline {
            std::thread::yield_now();
        }

        let t0 = Instant::now();
        exchange(&mut conn, &mut buf);
        r.reused.push(t0.elapsed().as_nanos() as f64);
    }
    r
}

fn raw_tcp(results: &mut Results, n: usize) {
    let fresh = EchoServer::start();
    let kept = EchoServer::start();
    let r = raw_samples(&fresh, &kept, n);
    results.set("raw.connect", Summary::from_ns(r.connect));
    results.set("raw.first_exchange", Summary::from_ns(r.first));
    results.set("raw.new_conn", Summary::from_ns(r.new));
    results.set("raw.reused", Summary::from_ns(r.reused));
    results.ratio("raw.ratio", "raw.new_conn", "raw.reused");
    // What waking the server thread adds to one exchange.
    results.difference("raw.wakeup", "raw.reused", "kernel.reused");

    // Our closes left TIME_WAIT entries on this server's port: count them now.
    std::thread::sleep(Duration::from_millis(50));
    let port = fresh.addr.port();
    results.set(
        "raw.time_wait_client",
        tcp::count(&[port], Side::Client).time_wait,
    );
    results.input("raw.connections_made", n + RAW_WARMUP);
    results.share(
        "raw.time_wait_share",
        "raw.time_wait_client",
        "raw.connections_made",
    );
}

/// HTTP/1.1 with hyper-util's legacy client: keep-alive pool vs no pool.
fn http(results: &mut Results, n: usize) {
    let server = netlab::http::Server::start(netlab::http::Options::default()).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let uri: hyper::Uri = format!("http://{}/", server.addr()).parse().unwrap();

    // ANCHOR: hyper_clients
    let mut connector = HttpConnector::new();
    connector.set_nodelay(true); // hyper, like std, leaves Nagle on by default
    let keepalive: Client<_, Empty<Bytes>> =
        Client::builder(TokioExecutor::new()).build(connector.clone());
    let one_shot: Client<_, Empty<Bytes>> = Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(0) // no idle pool: a new connection per request
        .build(connector);
    // ANCHOR_END: hyper_clients

    let get = |client: &Client<HttpConnector, Empty<Bytes>>| {
        let (client, uri) = (client.clone(), uri.clone());
        async move {
            let t0 = Instant::now();
            let resp = client.get(uri).await.unwrap();
            let body = resp.into_body().collect().await.unwrap().to_bytes();
            assert_eq!(body.len(), 64);
            t0.elapsed().as_nanos() as f64
        }
    };

    let (mut ka, mut os) = (Vec::new(), Vec::new());
    let (ka_conns, os_conns) = rt.block_on(async {
        // Warm-up: the keep-alive client opens its one connection here.
        for _ in 0..20 {
            get(&keepalive).await;
        }
        let mut os_conns = 0;
        for _ in 0..n {
            ka.push(get(&keepalive).await);
            let before = server.accepted();
            os.push(get(&one_shot).await);
            os_conns += server.accepted() - before;
        }
        (server.accepted() - os_conns, os_conns)
    });
    drop(keepalive);
    drop(rt);

    results.input("http.requests", n);
    results.set("http.keepalive", Summary::from_ns(ka));
    results.set("http.new_conn", Summary::from_ns(os));
    results.ratio("http.ratio", "http.new_conn", "http.keepalive");
    results.difference("http.saved", "http.new_conn", "http.keepalive");
    results.set("http.conns_keepalive", ka_conns);
    results.set("http.conns_new", os_conns);
}

#[derive(Serialize)]
struct Phase {
    phase: &'static str,
    phase_vi: &'static str,
    listen: usize,
    established: usize,
    time_wait: usize,
    other: usize,
}

/// The sockets of one port by state (both ends), and the client side's alone.
fn snapshot(phase: &'static str, phase_vi: &'static str, port: u16) -> (Phase, tcp::Counts) {
    let both = tcp::count(&[port], Side::Both);
    let row = Phase {
        phase,
        phase_vi,
        listen: both.listen,
        established: both.established,
        time_wait: both.time_wait,
        other: both.total - both.listen - both.established - both.time_wait,
    };
    (row, tcp::count(&[port], Side::Client))
}

/// Socket states of one fresh port: before, during and after HELD connections.
fn states(results: &mut Results) {
    // ANCHOR: states
    let listener = tcp::fresh_listener(); // 127.0.0.1, a port no other socket uses
    let port = listener.local_addr().unwrap().port();
    let before = snapshot("before", "trước", port);

    let clients: Vec<TcpStream> = (0..HELD)
        .map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap())
        .collect();
    let servers: Vec<TcpStream> = (0..HELD).map(|_| listener.accept().unwrap().0).collect();
    let during = snapshot("open", "đang mở", port);

    drop(clients); // the client closes first...
    drop(servers); // ...then the server answers with its own FIN
    std::thread::sleep(Duration::from_millis(100));
    let after = snapshot("closed", "đã đóng", port);

    drop(listener);
    let end = snapshot("listener closed", "đóng listener", port);
    // ANCHOR_END: states

    results.input("states.held", HELD);
    let open = &during.0;
    results.set("states.open_established", open.established);
    results.set("states.open_client_established", during.1.established);
    results.set(
        "states.open_server_established",
        open.established - during.1.established,
    );
    results.set("states.closed_time_wait", after.0.time_wait);
    results.set("states.closed_client_time_wait", after.1.time_wait);
    results.set("states.closed_established", after.0.established);
    results.set("states.end_time_wait", end.0.time_wait);
    let rows: Vec<Phase> = [before, during, after, end]
        .into_iter()
        .map(|p| p.0)
        .collect();
    results.set("states.rows", &rows);
}

/// The kernel settings the article explains its TIME_WAIT figures with.
fn sysctls(results: &mut Results) {
    let tw_reuse = tcp::sysctl_numbers("/proc/sys/net/ipv4/tcp_tw_reuse");
    results.set("sysctl.tcp_tw_reuse", tw_reuse.first().copied());
    results.input("params.tcp_timewait_seconds", TIMEWAIT_LEN_S);
}

/// The output tables, in both languages, from the results' paths.
fn tables(results: &mut Results) {
    kernel_table(results);
    raw_table(results);
    http_table(results);
}

/// The table of the kernel-only measurement.
fn kernel_table(results: &mut Results) {
    let median = Label::new("trung vị", "median");
    let mut t = Table::new([
        Label::new("một luồng, hai đầu", "one thread, both ends"),
        median,
    ])
    .titled(Label::new(
        format!("Phần việc của nhân: request {MSG} byte, hai đầu trong một luồng"),
        format!("Kernel only: {MSG}-byte request and response, both ends in one thread"),
    ));
    for (vi, en, path) in [
        (
            "connect(): bắt tay, tạo hai socket",
            "connect(): handshake, both sockets",
            "kernel.connect",
        ),
        (
            "accept() và TCP_NODELAY",
            "accept() and TCP_NODELAY",
            "kernel.accept",
        ),
        (
            "hỏi-đáp trên kết nối mới",
            "exchange on the new connection",
            "kernel.exchange",
        ),
        ("đóng hai đầu", "closing both ends", "kernel.close"),
        ("cả kết nối mới", "whole new connection", "kernel.new_conn"),
        (
            "hỏi-đáp trên kết nối tái dùng",
            "exchange on a reused connection",
            "kernel.reused",
        ),
        ("mới / tái dùng", "new / reused", "kernel.ratio"),
    ] {
        t.row([text(vi, en), value(path)]);
    }
    results.table(t);
}

/// The table of the server-thread variant.
fn raw_table(results: &mut Results) {
    let median = Label::new("trung vị", "median");

    let mut t = Table::new([
        Label::new("có luồng máy chủ", "with a server thread"),
        median,
    ])
    .titled(Label::new(
        "Máy chủ echo trong luồng riêng",
        "Echo server in its own thread",
    ));
    for (vi, en, path) in [
        ("connect()", "connect()", "raw.connect"),
        (
            "lần hỏi-đáp đầu tiên",
            "first exchange",
            "raw.first_exchange",
        ),
        ("cả kết nối mới", "whole new connection", "raw.new_conn"),
        (
            "hỏi-đáp trên kết nối tái dùng",
            "exchange on a reused connection",
            "raw.reused",
        ),
        ("mới / tái dùng", "new / reused", "raw.ratio"),
        (
            "thêm do đánh thức luồng",
            "added by the wake-up",
            "raw.wakeup",
        ),
    ] {
        t.row([text(vi, en), value(path)]);
    }
    results.table(t);
}

/// The table of the HTTP/1.1 comparison.
fn http_table(results: &mut Results) {
    let median = Label::new("trung vị", "median");

    let mut t = Table::new([
        Label::new(
            "client HTTP/1.1 (hyper-util)",
            "HTTP/1.1 client (hyper-util)",
        ),
        median,
        Label::new("kết nối đã mở", "connections opened"),
    ])
    .titled(Label::new(
        "GET với body 64 byte",
        "GET with a 64-byte body",
    ));
    t.row([
        text("pool keep-alive", "keep-alive pool"),
        value("http.keepalive"),
        value("http.conns_keepalive"),
    ]);
    t.row([
        same("pool_max_idle_per_host(0)"),
        value("http.new_conn"),
        value("http.conns_new"),
    ]);
    t.row([
        text("mới / keep-alive", "new / keep-alive"),
        value("http.ratio"),
        same(""),
    ]);
    results.table(t);
}

fn main() {
    let mut results = Results::new();
    let n = harness::pick(2000, 300);
    results.input("params.msg_bytes", MSG);
    results.input("params.samples", n);
    kernel_only(&mut results, n);
    computed(&mut results);
    raw_tcp(&mut results, n);
    http(&mut results, harness::pick(1000, 200));
    states(&mut results);
    sysctls(&mut results);
    tables(&mut results);
    results.write();
}

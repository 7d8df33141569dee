//! Networking part 1: what a TCP handshake costs on loopback, a new connection
//! per request against one reused connection (raw std TCP and HTTP/1.1 with
//! hyper), and the socket states of our ports read from /proc/net/tcp.

use bytes::Bytes;
use harness::{Ratio, Results, Summary};
use http_body_util::{BodyExt, Empty};
use hyper_util::client::legacy::{Client, connect::HttpConnector};
use hyper_util::rt::TokioExecutor;
use netlab::tcp::{self, Side};
use serde::Serialize;
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

/// Kernel-only cost: client and server sockets driven by ONE thread. On
/// loopback `connect()` completes inside the kernel (the listener's backlog
/// finishes the handshake), `accept()` then returns at once, and every write
/// is delivered before it returns, so no thread ever sleeps or waits for the
/// scheduler. What is left is the CPU work of TCP itself, which machine load
/// slows down for both cases alike. New and reused samples alternate A B A B.
fn kernel_only(results: &mut Results, n: usize) {
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

    let (mut connect_ns, mut new_ns, mut reused_ns) = (Vec::new(), Vec::new(), Vec::new());
    let warm = harness::pick(200, 50);
    for i in 0..warm + n {
        // ANCHOR: kernel_new
        let t0 = Instant::now();
        let mut c = TcpStream::connect(addr).unwrap(); // SYN, SYN-ACK, ACK
        let t1 = Instant::now();
        let mut s = listener.accept().unwrap().0; // already queued
        c.set_nodelay(true).unwrap();
        s.set_nodelay(true).unwrap();
        round(&mut c, &mut s, &mut buf);
        drop(c); // client closes first: FIN, ACK...
        drop(s); // ...server's FIN, ACK: the client keeps TIME_WAIT
        let t2 = Instant::now();
        // ANCHOR_END: kernel_new

        let t3 = Instant::now();
        round(&mut conn, &mut peer, &mut buf);
        let t4 = Instant::now();
        if i >= warm {
            connect_ns.push((t1 - t0).as_nanos() as f64);
            new_ns.push((t2 - t0).as_nanos() as f64);
            reused_ns.push((t4 - t3).as_nanos() as f64);
        }
    }
    drop((conn, peer, listener));

    let connect = Summary::from_ns(connect_ns);
    let new = Summary::from_ns(new_ns);
    let reused = Summary::from_ns(reused_ns);
    let ratio = Ratio::of(&new, &reused);
    results.set("kernel.connect", &connect);
    results.set("kernel.new_conn", &new);
    results.set("kernel.reused", &reused);
    results.set("kernel.ratio", ratio);
    results.set("kernel.extra", new.median - reused.median);
    results.set("kernel.connect_share", connect.median / new.median);
    let bar = |en: &str, vi: &str, s: &Summary| serde_json::json!({"en": en, "vi": vi, "median_ns": s.median});
    results.set(
        "kernel.bars",
        vec![
            bar("connect() only", "chỉ connect()", &connect),
            bar(
                "new connection per request",
                "kết nối mới mỗi request",
                &new,
            ),
            bar("reused connection", "tái dùng kết nối", &reused),
        ],
    );

    // What a real network adds: the handshake costs one extra round trip.
    // These RTTs are assumptions for the arithmetic, not measurements.
    let rows: Vec<_> = EXAMPLE_RTT_MS
        .iter()
        .map(|&ms| {
            let rtt_ns = ms as f64 * 1e6;
            serde_json::json!({
                "rtt_ms": ms,
                "rtt_ns": rtt_ns,
                "handshake_ns": rtt_ns + new.median - reused.median,
                "times_loopback_extra": (rtt_ns + new.median - reused.median) / (new.median - reused.median),
            })
        })
        .collect();
    results.set("computed.rtt_ms", EXAMPLE_RTT_MS[1]);
    results.set("computed.rtt_ns", EXAMPLE_RTT_MS[1] as f64 * 1e6);
    results.set("computed.rows", &rows);
    results.set(
        "computed.times_loopback_extra",
        rows[1]["times_loopback_extra"].as_f64().unwrap(),
    );

    println!(
        "Kernel only: both ends in one thread, {MSG}-byte request and response, {n} pairs A B A B (median):"
    );
    println!("  connect() alone               {:>10}", us(connect.median));
    println!(
        "  new connection per request    {:>10}   (connect, accept, exchange, close)",
        us(new.median)
    );
    println!("  reused connection             {:>10}", us(reused.median));
    println!("  new / reused                  {:>9.1}x", ratio.value);
    println!();
}

/// Raw TCP: connect-only timing, then new-connection vs reused-connection
/// requests, interleaved so that both see the same machine noise.
fn raw_tcp(results: &mut Results, n: usize) -> (u16, usize) {
    let fresh = EchoServer::start();
    let kept = EchoServer::start();
    let mut buf = [b'a'; MSG];

    // Warm-up: a few of each.
    for _ in 0..50 {
        let mut s = TcpStream::connect(fresh.addr).unwrap();
        s.set_nodelay(true).unwrap();
        exchange(&mut s, &mut buf);
    }

    // ANCHOR: reused
    let mut conn = TcpStream::connect(kept.addr).unwrap();
    conn.set_nodelay(true).unwrap(); // std default: Nagle on
    // ANCHOR_END: reused

    let (mut connect_ns, mut first_ns, mut new_ns, mut reused_ns) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
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
        connect_ns.push((t1 - t0).as_nanos() as f64);
        first_ns.push((t2 - t1).as_nanos() as f64);
        new_ns.push((t2 - t0).as_nanos() as f64);
        // Untimed: let the server finish closing that connection, so that its
        // clean-up does not compete with the next measurement for the CPU.
        let deadline = Instant::now() + Duration::from_millis(100);
        while fresh.done.load(Ordering::SeqCst) == served && Instant::now() < deadline {
            std::thread::yield_now();
        }

        let t0 = Instant::now();
        exchange(&mut conn, &mut buf);
        reused_ns.push(t0.elapsed().as_nanos() as f64);
    }
    drop(conn);

    let connect = Summary::from_ns(connect_ns);
    let first = Summary::from_ns(first_ns);
    let new = Summary::from_ns(new_ns);
    let reused = Summary::from_ns(reused_ns);
    let ratio = Ratio::of(&new, &reused);
    results.set("connect", &connect);
    results.set("raw.first_exchange", &first);
    results.set("raw.new_conn", &new);
    results.set("raw.reused", &reused);
    results.set("raw.ratio", ratio);
    results.set("raw.connect_share", connect.median / new.median);
    results.set("raw.first_vs_reused", first.median / reused.median);
    let bar = |en: &str, vi: &str, s: &Summary| serde_json::json!({"en": en, "vi": vi, "median_ns": s.median});
    results.set(
        "raw.bars",
        vec![
            bar("connect() only", "chỉ connect()", &connect),
            bar(
                "new connection per request",
                "kết nối mới mỗi request",
                &new,
            ),
            bar("reused connection", "tái dùng kết nối", &reused),
        ],
    );

    // Our closes left TIME_WAIT entries on this server's port: count them now.
    std::thread::sleep(Duration::from_millis(50));
    let port = fresh.addr.port();
    let tw = tcp::count(&[port], Side::Both);
    results.set("raw.time_wait_after", tw.time_wait);
    results.set(
        "raw.time_wait_client",
        tcp::count(&[port], Side::Client).time_wait,
    );
    let made = n + 50;
    results.set("raw.connections_made", made);
    results.set("raw.time_wait_share", tw.time_wait as f64 / made as f64);

    println!(
        "With a server thread on 127.0.0.1, {MSG}-byte request and response, {n} samples each (median):"
    );
    println!("  connect() alone               {:>10}", us(connect.median));
    println!("  first exchange on new conn    {:>10}", us(first.median));
    println!("  new connection per request    {:>10}", us(new.median));
    println!("  reused connection             {:>10}", us(reused.median));
    println!("  new / reused                  {:>9.1}x", ratio.value);
    (port, tw.time_wait)
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

    let ka = Summary::from_ns(ka);
    let os = Summary::from_ns(os);
    let ratio = Ratio::of(&os, &ka);
    results.set("http.requests", n);
    results.set("http.keepalive", &ka);
    results.set("http.new_conn", &os);
    results.set("http.ratio", ratio);
    results.set("http.conns_keepalive", ka_conns);
    results.set("http.conns_new", os_conns);
    results.set("http.saved", os.median - ka.median);

    println!();
    println!("HTTP/1.1 GET, hyper-util legacy client, 64-byte body, {n} requests each (median):");
    println!(
        "  keep-alive pool               {:>10}   connections opened: {ka_conns}",
        us(ka.median)
    );
    println!(
        "  pool_max_idle_per_host(0)     {:>10}   connections opened: {os_conns}",
        us(os.median)
    );
    println!("  new / keep-alive              {:>9.1}x", ratio.value);
}

#[derive(Serialize)]
struct Phase {
    phase: &'static str,
    phase_vi: &'static str,
    listen: usize,
    established: usize,
    time_wait: usize,
    other: usize,
    client_time_wait: usize,
}

fn snapshot(phase: &'static str, phase_vi: &'static str, port: u16) -> Phase {
    let both = tcp::count(&[port], Side::Both);
    Phase {
        phase,
        phase_vi,
        listen: both.listen,
        established: both.established,
        time_wait: both.time_wait,
        other: both.total - both.listen - both.established - both.time_wait,
        client_time_wait: tcp::count(&[port], Side::Client).time_wait,
    }
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

    println!();
    println!("Sockets of one port in /proc/net/tcp, {HELD} connections (both ends counted):");
    println!(
        "  {:<16} {:>7} {:>12} {:>10} {:>6}",
        "phase", "LISTEN", "ESTABLISHED", "TIME_WAIT", "other"
    );
    let rows = vec![before, during, after, end];
    for r in &rows {
        println!(
            "  {:<16} {:>7} {:>12} {:>10} {:>6}",
            r.phase, r.listen, r.established, r.time_wait, r.other
        );
    }
    results.set("states.held", HELD);
    results.set("states.open_established", rows[1].established);
    // Sockets per connection while open: 2 when both ends are on this machine.
    results.set(
        "states.established_per_conn",
        rows[1].established as f64 / HELD as f64,
    );
    results.set("states.closed_time_wait", rows[2].time_wait);
    results.set("states.closed_client_time_wait", rows[2].client_time_wait);
    results.set("states.closed_established", rows[2].established);
    results.set("states.end_time_wait", rows[3].time_wait);
    results.set("states.rows", &rows);
}

fn us(ns: f64) -> String {
    format!("{:.1} µs", ns / 1000.0)
}

fn main() {
    let mut results = Results::new();
    let n = harness::pick(2000, 300);
    results.set("params.msg_bytes", MSG);
    results.set("params.samples", n);
    results.set(
        "params.tcp_timewait_seconds",
        60, // TCP_TIMEWAIT_LEN, a constant compiled into the Linux kernel
    );
    kernel_only(&mut results, n);
    let (port, tw) = raw_tcp(&mut results, n);
    println!("  TIME_WAIT left on that port   {tw:>10}   (port {port}, our side)");
    http(&mut results, harness::pick(1000, 200));
    states(&mut results);
    results.write();
}

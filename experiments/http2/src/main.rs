//! HTTP/1.1 vs HTTP/2 against a local hyper server: a burst of parallel requests
//! (connections opened, total time) and head-of-line blocking behind one slow response.

mod server;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Instant;

use bytes::Bytes;
use harness::Summary;
use http_body_util::{BodyExt, Empty};
use hyper::{Request, Uri};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde::Serialize;
use server::Server;
use tokio::net::TcpStream;
use tokio::task::JoinSet;
use tower_service::Service;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Requests sent at once in a burst.
const PARALLEL: usize = 300;
/// Fast requests queued behind one slow one in the head-of-line test.
const FAST: usize = 20;

// ANCHOR: burst
/// Sends PARALLEL requests at once through hyper-util's pooled client and waits for
/// all of them. Returns the time and the connections the client started meanwhile,
/// counted by its connector as it starts each one: a connection a request started and
/// then did not need is still completed in the background, and it is counted here, in
/// the burst that started it, however late it reaches the server.
async fn burst(client: &Pooled) -> Result<(f64, usize), BoxError> {
    let uri: Uri = format!("http://{}/", client.addr).parse()?;
    let before = client.connects.load(Ordering::Relaxed);
    let t0 = Instant::now();
    let mut set = JoinSet::new();
    for _ in 0..PARALLEL {
        let (c, u) = (client.client.clone(), uri.clone());
        set.spawn(async move {
            let res = c.get(u).await?;
            res.into_body().collect().await?;
            Ok::<_, BoxError>(())
        });
    }
    while let Some(r) = set.join_next().await {
        r??;
    }
    let elapsed = t0.elapsed().as_nanos() as f64;
    Ok((elapsed, client.connects.load(Ordering::Relaxed) - before))
}

/// hyper-util's pooled client, with the count of connections its connector started.
struct Pooled {
    client: Client<Counting, Empty<Bytes>>,
    connects: Arc<AtomicUsize>,
    addr: std::net::SocketAddr,
}

fn client(h2: bool, addr: std::net::SocketAddr) -> Pooled {
    let mut http = HttpConnector::new(); // 127.0.0.1 literals: no resolver involved
    http.set_nodelay(true);
    let connects = Arc::new(AtomicUsize::new(0));
    let counting = Counting {
        http,
        connects: connects.clone(),
    };
    let client = Client::builder(TokioExecutor::new())
        .http2_only(h2) // h2c with prior knowledge
        .build(counting);
    Pooled {
        client,
        connects,
        addr,
    }
}

/// An `HttpConnector` that counts the connections it is asked to open.
#[derive(Clone)]
struct Counting {
    http: HttpConnector,
    connects: Arc<AtomicUsize>,
}

impl Service<Uri> for Counting {
    type Response = <HttpConnector as Service<Uri>>::Response;
    type Error = <HttpConnector as Service<Uri>>::Error;
    type Future = <HttpConnector as Service<Uri>>::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.http.poll_ready(cx)
    }

    fn call(&mut self, dst: Uri) -> Self::Future {
        self.connects.fetch_add(1, Ordering::Relaxed);
        self.http.call(dst)
    }
}
// ANCHOR_END: burst

fn request(addr: std::net::SocketAddr, path: &str) -> Result<Request<Empty<Bytes>>, BoxError> {
    Ok(Request::get(format!("http://{addr}{path}")).body(Empty::new())?)
}

// ANCHOR: hol
/// One slow request, then FAST quick ones, all wanted at time zero, on ONE connection.
/// Returns when each finished, measured from time zero (index 0 is the slow one).
async fn head_of_line(h2: bool, addr: std::net::SocketAddr) -> Result<Vec<f64>, BoxError> {
    let stream = TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let io = TokioIo::new(stream);
    let mut done = vec![0.0; FAST + 1];
    let path = |i: usize| if i == 0 { "/slow" } else { "/" };
    if h2 {
        // HTTP/2: every request is its own stream, all in flight together.
        let (sender, conn) =
            hyper::client::conn::http2::handshake(TokioExecutor::new(), io).await?;
        tokio::spawn(conn);
        let t0 = Instant::now();
        let mut set = JoinSet::new();
        for i in 0..=FAST {
            let (mut s, req) = (sender.clone(), request(addr, path(i))?);
            set.spawn(async move {
                s.send_request(req).await?.into_body().collect().await?;
                Ok::<_, BoxError>((i, t0.elapsed()))
            });
        }
        while let Some(r) = set.join_next().await {
            let (i, t) = r??;
            done[i] = t.as_nanos() as f64;
        }
    } else {
        // HTTP/1.1: one request at a time on the connection; the next waits its turn.
        let (mut sender, conn) = hyper::client::conn::http1::handshake(io).await?;
        tokio::spawn(conn);
        let t0 = Instant::now();
        for (i, slot) in done.iter_mut().enumerate() {
            sender.ready().await?;
            sender
                .send_request(request(addr, path(i))?)
                .await?
                .into_body()
                .collect()
                .await?;
            *slot = t0.elapsed().as_nanos() as f64;
        }
    }
    Ok(done)
}
// ANCHOR_END: hol

#[derive(Serialize)]
struct Proto {
    name: &'static str,
    cold: Summary,
    cold_ns: f64,
    warm: Summary,
    warm_ns: f64,
    conns_cold: usize,
    conns_cold_max: usize,
    conns_warm: usize,
    /// Of the cold burst's connections, those the server had accepted when the warm
    /// burst started (median).
    cold_arrived: usize,
    /// Every connection the clients started, all rounds and both bursts.
    client_connects: usize,
    /// Every connection the server accepted over the same rounds.
    server_accepted: usize,
    /// server_accepted − client_connects: 0 when the two counts agree.
    count_gap: i64,
    hol_fast: Summary,
    hol_fast_ns: f64,
    hol_slow: Summary,
}

fn median_usize(v: &mut [usize]) -> usize {
    v.sort_unstable();
    v[v.len() / 2]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), BoxError> {
    let quick = harness::quick();
    let (rounds, hol_reps) = if quick { (4, 2) } else { (15, 5) };
    let servers = [Server::start(false).await?, Server::start(true).await?];

    // Per protocol: cold burst times, warm burst times, connections, HOL times.
    let mut cold = [vec![], vec![]];
    let mut warm = [vec![], vec![]];
    let mut conns_cold = [vec![], vec![]];
    let mut conns_warm = [vec![], vec![]];
    let mut connects = [0, 0];
    let mut cold_arrived = [vec![], vec![]];
    // ANCHOR: rounds
    for round in 0..=rounds {
        for (p, srv) in servers.iter().enumerate() {
            let c = client(p == 1, srv.addr); // a new client: an empty pool
            let at_start = srv.accepted();
            let (t_cold, n_cold) = burst(&c).await?;
            // How many of the cold burst's connections the server has when the warm one starts.
            let arrived = srv.accepted() - at_start;
            let (t_warm, n_warm) = burst(&c).await?; // same client, pool filled
            connects[p] += n_cold + n_warm;
            if round > 0 {
                // round 0 is a warm-up
                cold[p].push(t_cold);
                warm[p].push(t_warm);
                conns_cold[p].push(n_cold);
                conns_warm[p].push(n_warm);
                cold_arrived[p].push(arrived);
            }
        }
    }
    // ANCHOR_END: rounds
    // The server's own count, once every connection started in the background is in.
    let mut accepted = [0, 0];
    for (p, srv) in servers.iter().enumerate() {
        let limit = Instant::now() + std::time::Duration::from_secs(5);
        while srv.accepted() < connects[p] && Instant::now() < limit {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        accepted[p] = srv.accepted();
    }

    let mut hol_fast = [vec![], vec![]];
    let mut hol_slow = [vec![], vec![]];
    for _ in 0..hol_reps {
        for (p, srv) in servers.iter().enumerate() {
            let done = head_of_line(p == 1, srv.addr).await?;
            hol_slow[p].push(done[0]);
            hol_fast[p].extend_from_slice(&done[1..]);
        }
    }
    drop(servers);

    let names = ["HTTP/1.1", "HTTP/2"];
    let protos: Vec<Proto> = (0..2)
        .map(|p| {
            let cold_s = Summary::from_ns(cold[p].clone());
            let warm_s = Summary::from_ns(warm[p].clone());
            let fast = Summary::from_ns(hol_fast[p].clone());
            Proto {
                name: names[p],
                cold_ns: cold_s.median,
                warm_ns: warm_s.median,
                hol_fast_ns: fast.median,
                cold: cold_s,
                warm: warm_s,
                conns_cold: median_usize(&mut conns_cold[p]),
                conns_cold_max: *conns_cold[p].iter().max().unwrap_or(&0),
                conns_warm: median_usize(&mut conns_warm[p]),
                cold_arrived: median_usize(&mut cold_arrived[p]),
                client_connects: connects[p],
                server_accepted: accepted[p],
                count_gap: accepted[p] as i64 - connects[p] as i64,
                hol_fast: fast,
                hol_slow: Summary::from_ns(hol_slow[p].clone()),
            }
        })
        .collect();
    let (h1, h2) = (&protos[0], &protos[1]);

    println!(
        "{PARALLEL} parallel GETs, server work {} ms each, {rounds} rounds, loopback",
        server::WORK.as_millis()
    );
    println!(
        "{:<10} {:>12} {:>12} {:>12} {:>12}",
        "protocol", "cold burst", "conns (new)", "warm burst", "conns (new)"
    );
    for p in &protos {
        println!(
            "{:<10} {:>12} {:>12} {:>12} {:>12}",
            p.name,
            fmt_ns(p.cold.median),
            p.conns_cold,
            fmt_ns(p.warm.median),
            p.conns_warm
        );
    }
    println!(
        "\nhead-of-line: 1 request of {} ms + {FAST} of {} ms on one connection",
        server::SLOW.as_millis(),
        server::WORK.as_millis()
    );
    println!("{:<10} {:>14} {:>14}", "protocol", "fast (median)", "slow");
    for p in &protos {
        println!(
            "{:<10} {:>14} {:>14}",
            p.name,
            fmt_ns(p.hol_fast.median),
            fmt_ns(p.hol_slow.median)
        );
    }

    let mut res = harness::Results::new();
    res.set("parallel", PARALLEL);
    res.set("rounds", rounds);
    res.set("fast", FAST);
    res.set("work_ns", server::WORK.as_nanos() as f64);
    res.set("slow_ns", server::SLOW.as_nanos() as f64);
    res.set("max_streams", server::MAX_STREAMS);
    res.set("max_streams_default", 200);
    res.set("h1", h1);
    res.set("h2", h2);
    res.set("protos", &protos);
    res.set("cold_speedup", h1.cold.median / h2.cold.median);
    res.set("warm_ratio", h1.warm.median / h2.warm.median);
    res.set("hol_ratio", h1.hol_fast.median / h2.hol_fast.median);
    res.set("h1_cold_per_request_ns", h1.cold.median / PARALLEL as f64);
    res.write();
    Ok(())
}

fn fmt_ns(ns: f64) -> String {
    match ns {
        n if n >= 1e9 => format!("{:.2} s", n / 1e9),
        n if n >= 1e6 => format!("{:.1} ms", n / 1e6),
        n if n >= 1e3 => format!("{:.1} µs", n / 1e3),
        n => format!("{n:.0} ns"),
    }
}

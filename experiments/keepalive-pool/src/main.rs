//! Networking part 3: keep-alive vs connection pool. Many workers send HTTP/1.1
//! requests in parallel to a local server that counts the connections it
//! accepted; hyper-util's legacy Client runs with several
//! `pool_max_idle_per_host` limits, and we count connections opened and time.

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper_util::client::legacy::{Client, connect::HttpConnector};
use hyper_util::rt::TokioExecutor;
use netlab::http::{Options, Server};
use serde::Serialize;
use std::time::{Duration, Instant};

/// Parallel workers (tokio tasks), each sending its requests one after another.
const WORKERS: usize = 50;
/// Requests in total, split evenly among the workers.
const REQUESTS: usize = 2000;
/// Work the server does per request.
const SERVER_DELAY: Duration = Duration::from_micros(200);

/// Assumed (not measured) inputs for the pool-sizing arithmetic in the
/// article: a service calling one host at this rate, with these latencies.
const SIZING_RATE_PER_S: f64 = 400.0;
const SIZING_MEDIAN_MS: f64 = 30.0;
const SIZING_P99_MS: f64 = 120.0;

#[derive(Serialize)]
struct Row {
    pool: usize,
    connections: u64,
    ms: f64,
    per_request_us: f64,
    conns_per_request: f64,
}

// ANCHOR: run
async fn run(server: &Server, max_idle: usize) -> (u64, Duration) {
    let mut connector = HttpConnector::new();
    connector.set_nodelay(true); // hyper leaves Nagle on by default
    let client: Client<_, Empty<Bytes>> = Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(max_idle)
        .build(connector);
    let uri: hyper::Uri = format!("http://{}/", server.addr()).parse().unwrap();
    let before = server.accepted();
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..WORKERS {
        let (client, uri) = (client.clone(), uri.clone());
        tasks.push(tokio::spawn(async move {
            for _ in 0..REQUESTS / WORKERS {
                let resp = client.get(uri.clone()).await.unwrap();
                resp.into_body().collect().await.unwrap(); // read to the end
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let elapsed = t0.elapsed();
    (server.accepted() - before, elapsed)
}
// ANCHOR_END: run

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    let mut results = harness::Results::new();
    let reps = harness::pick(3, 1);
    let sizes = [0, 1, 2, 8, WORKERS];
    results.set("params.workers", WORKERS);
    results.set("params.requests", REQUESTS);
    results.set("params.server_delay_us", SERVER_DELAY.as_micros() as u64);
    results.set("params.reps", reps);

    let server = Server::start(Options {
        body_len: 64,
        delay: SERVER_DELAY,
    })
    .unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();

    rt.block_on(run(&server, WORKERS)); // warm-up
    let mut rows = Vec::new();
    println!(
        "{REQUESTS} GET requests, {WORKERS} parallel workers, server works {} µs per request",
        SERVER_DELAY.as_micros()
    );
    println!("hyper-util legacy Client on a current-thread tokio runtime (median of {reps} runs):");
    println!(
        "  {:>22} {:>12} {:>10} {:>12}",
        "pool_max_idle_per_host", "connections", "total", "per request"
    );
    for &size in &sizes {
        let mut conns = Vec::new();
        let mut ms = Vec::new();
        for _ in 0..reps {
            let (c, d) = rt.block_on(run(&server, size));
            conns.push(c as f64);
            ms.push(d.as_secs_f64() * 1e3);
            // Let closed connections' server threads finish before the next run.
            std::thread::sleep(Duration::from_millis(50));
        }
        let (connections, ms) = (median(conns) as u64, median(ms));
        let row = Row {
            pool: size,
            connections,
            ms,
            per_request_us: ms * 1e3 / REQUESTS as f64,
            conns_per_request: connections as f64 / REQUESTS as f64,
        };
        println!(
            "  {:>22} {:>12} {:>7.0} ms {:>9.1} µs",
            row.pool, row.connections, row.ms, row.per_request_us
        );
        rows.push(row);
    }
    drop(rt);

    // The same with a multi-threaded runtime: tasks run in parallel on both
    // cores, so connections come back to the pool at the same moment.
    let mt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    mt.block_on(run(&server, WORKERS));
    println!();
    println!("Same, multi-threaded tokio runtime (2 worker threads):");
    let mut mt_rows = Vec::new();
    for &size in &sizes {
        let mut conns = Vec::new();
        let mut ms = Vec::new();
        for _ in 0..reps {
            let (c, d) = mt.block_on(run(&server, size));
            conns.push(c as f64);
            ms.push(d.as_secs_f64() * 1e3);
            std::thread::sleep(Duration::from_millis(50));
        }
        let (connections, ms) = (median(conns) as u64, median(ms));
        let row = Row {
            pool: size,
            connections,
            ms,
            per_request_us: ms * 1e3 / REQUESTS as f64,
            conns_per_request: connections as f64 / REQUESTS as f64,
        };
        println!(
            "  {:>22} {:>12} {:>7.0} ms {:>9.1} µs",
            row.pool, row.connections, row.ms, row.per_request_us
        );
        mt_rows.push(row);
    }
    drop(mt);
    results.set("mt_rows", &mt_rows);
    results.set("mt_p1_conns", mt_rows[1].connections);
    results.set("mt_p2_conns", mt_rows[2].connections);
    for (i, r) in rows.iter().enumerate() {
        results.set(&format!("by_pool.p{}", r.pool), r);
        results.set(&format!("idx.{i}"), r.pool);
    }
    let p0 = &rows[0];
    let full = &rows[rows.len() - 1];
    results.set("speedup_full_vs_none", p0.ms / full.ms);
    results.set("speedup_full_vs_1", rows[1].ms / full.ms);
    results.set(
        "conns_ratio_1_vs_full",
        rows[1].connections as f64 / full.connections as f64,
    );
    results.set("rows", &rows);
    results.set("mt_p2_conns_per_request", mt_rows[2].conns_per_request);
    results.set("mt_p1_conns_per_request", mt_rows[1].conns_per_request);

    // ANCHOR: sizing
    // Little's law: requests in flight = arrival rate x time in the system.
    // Computed from assumed inputs, not measured.
    let in_flight = |latency_ms: f64| SIZING_RATE_PER_S * latency_ms / 1e3;
    // ANCHOR_END: sizing
    results.set("sizing.rate_per_s", SIZING_RATE_PER_S);
    results.set("sizing.median_ns", SIZING_MEDIAN_MS * 1e6);
    results.set("sizing.p99_ns", SIZING_P99_MS * 1e6);
    results.set("sizing.at_median", in_flight(SIZING_MEDIAN_MS));
    results.set("sizing.at_p99", in_flight(SIZING_P99_MS));
    results.set("server_requests", server.requests());
    results.write();
}

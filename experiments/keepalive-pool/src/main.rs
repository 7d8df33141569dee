//! Networking part 3: keep-alive vs connection pool. Many workers send HTTP/1.1
//! requests in parallel to a local server that counts the connections it
//! accepted; hyper-util's legacy Client runs with several
//! `pool_max_idle_per_host` limits, and we count connections opened, wall time
//! and each request's latency. Then: what dropping an unread body costs.

use bytes::Bytes;
use harness::declare::{Label, Table, same, value, value_as};
use harness::{Results, Summary};
use http_body_util::{BodyExt, Empty};
use hyper_util::client::legacy::{Client, connect::HttpConnector};
use hyper_util::rt::TokioExecutor;
use netlab::http::{Options, Server};
use std::time::{Duration, Instant};
use tokio::runtime::Runtime;

/// Parallel workers (tokio tasks), each sending its requests one after another.
const WORKERS: usize = 50;
/// Requests in total, split evenly among the workers.
const REQUESTS: usize = 2000;
/// Work the server does per request.
const SERVER_DELAY: Duration = Duration::from_micros(200);
/// The `pool_max_idle_per_host` limits compared.
const SIZES: [usize; 5] = [0, 1, 2, 8, WORKERS];
/// Sequential requests whose bodies are dropped unread, per body size.
const DROPS: usize = 200;
/// The response body of every request but the big ones: it arrives with the head.
const SMALL_BODY: usize = 64;
/// A body too large to arrive with its response head.
const BIG_BODY: usize = 1 << 20;

/// Assumed (not measured) inputs for the pool-sizing arithmetic in the
/// article: a service calling one host at this rate, with these mean latencies.
const SIZING_RATE_PER_S: f64 = 400.0;
const SIZING_MEAN_MS: f64 = 30.0;
const SIZING_SLOW_MEAN_MS: f64 = 120.0;

/// A bar of the article's chart.
#[derive(serde::Serialize)]
struct Row {
    pool: usize,
    connections: f64,
}

/// One batch of REQUESTS: connections the server accepted, wall time, and each
/// request's latency (ns).
struct Batch {
    connections: u64,
    wall: Duration,
    latencies: Vec<f64>,
}

// ANCHOR: run
async fn run(server: &Server, max_idle: usize) -> Batch {
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
            let mut latencies = Vec::with_capacity(REQUESTS / WORKERS);
            for _ in 0..REQUESTS / WORKERS {
                let t = Instant::now();
                let resp = client.get(uri.clone()).await.unwrap();
                resp.into_body().collect().await.unwrap(); // read to the end
                latencies.push(t.elapsed().as_nanos() as f64);
            }
            latencies
        }));
    }
    let mut latencies = Vec::with_capacity(REQUESTS);
    for t in tasks {
        latencies.extend(t.await.unwrap());
    }
    let wall = t0.elapsed();
    let connections = server.accepted() - before;
    Batch {
        connections,
        wall,
        latencies,
    }
}
// ANCHOR_END: run

/// `reps` batches of every pool size on `rt`, the sizes in a rotated order each
/// time, so that no size always runs first or last. Returns the batches by size.
fn sweep(rt: &Runtime, server: &Server, reps: usize) -> Vec<Vec<Batch>> {
    rt.block_on(run(server, WORKERS)); // warm-up
    let mut by_size: Vec<Vec<Batch>> = SIZES.iter().map(|_| Vec::new()).collect();
    for rep in 0..reps {
        for k in 0..SIZES.len() {
            let i = (rep + k) % SIZES.len();
            by_size[i].push(rt.block_on(run(server, SIZES[i])));
            // Let closed connections' server threads finish before the next batch.
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    by_size
}

/// CPU time this thread has used, in ns (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`).
fn thread_cpu_ns() -> f64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    let r = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(r, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.sec as f64 * 1e9 + ts.nsec as f64
}

/// A pool of one against the unbounded pool on the single-threaded runtime, batch after
/// batch in the order A B B A, `pairs` times: the client's CPU time per request in each
/// batch (the runtime runs every task on this thread), for each. Both pools open one
/// connection per worker; this asks whether the client then does the same work. CPU
/// time, unlike the wall time of a batch, does not count the waits that the rest of
/// a busy machine imposes.
fn same_connections(rt: &Runtime, server: &Server, pairs: usize) -> (Summary, Summary) {
    let (mut one, mut full) = (Vec::new(), Vec::new());
    for i in 0..pairs {
        let order = if i % 2 == 0 {
            [1, WORKERS]
        } else {
            [WORKERS, 1]
        };
        for size in order {
            let cpu0 = thread_cpu_ns();
            rt.block_on(run(server, size));
            let per_request = (thread_cpu_ns() - cpu0) / REQUESTS as f64;
            let into = if size == 1 { &mut one } else { &mut full };
            into.push(per_request);
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    (Summary::from_ns(one), Summary::from_ns(full))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Per pool size under `prefix`: connections and wall time (medians of the batches),
/// the latency of every request of every batch, and the connections per request.
fn record(results: &mut Results, prefix: &str, by_size: &[Vec<Batch>]) {
    let mut rows = Vec::new();
    for (size, batches) in SIZES.iter().zip(by_size) {
        let key = format!("{prefix}.p{size}");
        let connections = median(batches.iter().map(|b| b.connections as f64).collect());
        let ms = median(batches.iter().map(|b| b.wall.as_secs_f64() * 1e3).collect());
        let all: Vec<f64> = batches.iter().flat_map(|b| b.latencies.clone()).collect();
        results.set(&format!("{key}.connections"), connections);
        results.set(&format!("{key}.ms"), ms);
        results.set(&format!("{key}.latency"), Summary::from_ns(all));
        results.share(
            &format!("{key}.conns_per_request"),
            &format!("{key}.connections"),
            "params.requests",
        );
        rows.push(Row {
            pool: *size,
            connections,
        });
    }
    results.set(&format!("{prefix}.rows"), rows);
}

// ANCHOR: dropped
/// `n` requests one after another whose responses are dropped, body unread.
async fn dropped_bodies(server: &Server, n: usize) -> u64 {
    let client: Client<_, Empty<Bytes>> =
        Client::builder(TokioExecutor::new()).build(HttpConnector::new());
    let uri: hyper::Uri = format!("http://{}/", server.addr()).parse().unwrap();
    let before = server.accepted();
    for _ in 0..n {
        let resp = client.get(uri.clone()).await.unwrap();
        drop(resp); // head read, body never touched
    }
    server.accepted() - before
}
// ANCHOR_END: dropped

/// Dropping unread bodies: a small one (it arrives with the head) and a big one.
fn drops(results: &mut Results) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    results.input("drop.requests", DROPS);
    results.input("drop.small_body", SMALL_BODY);
    results.input("drop.big_body", BIG_BODY);
    for (key, body_len) in [("drop.small", SMALL_BODY), ("drop.big", BIG_BODY)] {
        let server = Server::start(Options {
            body_len,
            delay: Duration::ZERO,
        })
        .unwrap();
        let connections = rt.block_on(dropped_bodies(&server, DROPS));
        results.set(&format!("{key}.connections"), connections);
    }
}

/// The output tables, in both languages, from the results' paths.
fn tables(results: &mut Results) {
    for (prefix, vi, en) in [
        (
            "by_pool",
            "Runtime tokio đơn luồng",
            "Single-threaded tokio runtime",
        ),
        (
            "mt",
            "Runtime tokio đa luồng (hai luồng worker)",
            "Multi-threaded tokio runtime (two worker threads)",
        ),
    ] {
        let mut t = Table::new([
            Label::same("pool_max_idle_per_host"),
            Label::new("kết nối đã mở", "connections opened"),
            Label::new("thời gian cả loạt (ms)", "whole batch (ms)"),
            Label::new("trung vị mỗi request", "median request"),
            Label::new("trung bình mỗi request", "mean request"),
        ])
        .titled(Label::new(vi, en));
        for size in SIZES {
            let key = format!("{prefix}.p{size}");
            t.row([
                same(size.to_string()),
                value_as(format!("{key}.connections"), "int"),
                value_as(format!("{key}.ms"), "fixed(0)"),
                value(format!("{key}.latency")),
                value_as(format!("{key}.latency.mean"), "duration"),
            ]);
        }
        results.table(t);
    }
}

fn main() {
    let mut results = Results::new();
    let reps = harness::pick(5, 2);
    results.input("params.workers", WORKERS);
    results.input("params.requests", REQUESTS);
    results.input_duration("params.server_delay", SERVER_DELAY.as_nanos() as f64);
    results.input("params.reps", reps);
    for (i, size) in SIZES.iter().enumerate() {
        results.input(&format!("idx.{i}"), size);
    }

    let server = Server::start(Options {
        body_len: SMALL_BODY,
        delay: SERVER_DELAY,
    })
    .unwrap();
    let st = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let single = sweep(&st, &server, reps);
    let pairs = harness::pick(16, 2);
    results.input("params.pairs", pairs);
    let (one, full) = same_connections(&st, &server, pairs);
    results.set("pair.p1.cpu", one);
    results.set("pair.full.cpu", full);
    drop(st);
    // The same with a multi-threaded runtime: tasks run in parallel on both
    // cores, so connections come back to the pool at the same moment.
    let mt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let multi = sweep(&mt, &server, reps);
    drop(mt);

    record(&mut results, "by_pool", &single);
    record(&mut results, "mt", &multi);
    derived(&mut results);
    drops(&mut results);
    sizing(&mut results);
    results.set("server_requests", server.requests());
    tables(&mut results);
    results.write();
}

/// Ratios the article reads, from the recorded values.
fn derived(results: &mut Results) {
    let full = format!("by_pool.p{WORKERS}");
    results.ratio(
        "speedup_full_vs_none",
        "by_pool.p0.ms",
        &format!("{full}.ms"),
    );
    // The same connections: does a pool of one serve requests as fast as a full one?
    // The least CPU time per request of any batch: the batch the rest of a busy
    // machine disturbed least (its load only ever adds time).
    results.ratio("pair.p1_vs_full", "pair.p1.cpu.min", "pair.full.cpu.min");
    // The floor: every pool opens at least one connection per worker.
    results.share("floor_per_request", "params.workers", "params.requests");
    for key in ["by_pool.p1", "mt.p1", "mt.p2", &format!("mt.p{WORKERS}")] {
        results.ratio(
            &format!("{key}.per_worker"),
            &format!("{key}.connections"),
            "params.workers",
        );
    }
}

/// Little's law with assumed figures (inputs): requests in flight on average.
fn sizing(results: &mut Results) {
    // ANCHOR: sizing
    // Little's law: requests in flight (on average) = arrival rate x MEAN time in
    // the system. Computed from assumed inputs, not measured.
    let in_flight = |mean_ms: f64| SIZING_RATE_PER_S * mean_ms / 1e3;
    // ANCHOR_END: sizing
    results.input("sizing.rate_per_s", SIZING_RATE_PER_S);
    results.input_duration("sizing.mean", SIZING_MEAN_MS * 1e6);
    results.input_duration("sizing.slow_mean", SIZING_SLOW_MEAN_MS * 1e6);
    results.input("sizing.at_mean", in_flight(SIZING_MEAN_MS));
    results.input("sizing.at_slow_mean", in_flight(SIZING_SLOW_MEAN_MS));
}

//! Window functions vs a correlated self-join: ROW_NUMBER / RANK / DENSE_RANK with ties,
//! a running total with LAG, and what the self-join version of the running total costs
//! as the table grows. Runs on PostgreSQL when installed, on SQLite otherwise.

mod db;
mod pg;

use std::time::Instant;

use db::Db;
use harness::Summary;
use pg::BoxError;
use serde::Serialize;

/// Table sizes of the sweep (rows).
const SIZES: [u64; 10] = [
    250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000,
];
/// The window function's growth is fitted from this size up (below it, fixed costs dominate).
const WINDOW_FIT_FROM: u64 = 8_000;
/// The self-join stops once its next size is predicted (quadratic growth) to take longer.
const SELF_JOIN_BUDGET_NS: f64 = 1.5e9;

// ANCHOR: ranks
const SCORES: &str = "
CREATE TABLE scores (player TEXT PRIMARY KEY, score INTEGER NOT NULL);
INSERT INTO scores VALUES ('An', 92), ('Bình', 87), ('Chi', 87), ('Dũng', 81),
                          ('Giang', 81), ('Hà', 81), ('Khoa', 75), ('Linh', 70);";

const RANKS: &str = "
SELECT player, CAST(score AS BIGINT) AS score,
       ROW_NUMBER() OVER (ORDER BY score DESC, player) AS row_number,
       RANK()       OVER (ORDER BY score DESC)         AS rank,
       DENSE_RANK() OVER (ORDER BY score DESC)         AS dense_rank
FROM scores
ORDER BY score DESC, player";
// ANCHOR_END: ranks

// ANCHOR: running
const DAILY: &str = "
CREATE TABLE daily (day INTEGER PRIMARY KEY, revenue INTEGER NOT NULL);
INSERT INTO daily VALUES (1, 120), (2, 135), (3, 110), (4, 160),
                         (5, 160), (6, 90), (7, 175);";

const RUNNING: &str = "
SELECT CAST(day AS BIGINT) AS day, CAST(revenue AS BIGINT) AS revenue,
       CAST(SUM(revenue) OVER (ORDER BY day) AS BIGINT)            AS running_total,
       CAST(LAG(revenue) OVER (ORDER BY day) AS BIGINT)            AS previous,
       CAST(revenue - LAG(revenue) OVER (ORDER BY day) AS BIGINT)  AS change
FROM daily
ORDER BY day";
// ANCHOR_END: running

// ANCHOR: bench_sql
/// Running total with a window function: one ordered pass.
const WINDOW_SQL: &str = "
SELECT id, CAST(SUM(amount) OVER (ORDER BY id) AS BIGINT) AS running
FROM t ORDER BY id";

/// The same running total with a correlated subquery: for every row,
/// sum all rows up to it.
const SELF_JOIN_SQL: &str = "
SELECT a.id, (SELECT CAST(SUM(b.amount) AS BIGINT) FROM t AS b WHERE b.id <= a.id) AS running
FROM t AS a ORDER BY a.id";
// ANCHOR_END: bench_sql

/// Fills `t` with `n` rows of deterministic amounts (0..999).
fn fill(db: &mut Db, n: u64) -> Result<(), BoxError> {
    let sql = match db {
        Db::Pg { .. } => format!(
            "TRUNCATE t; INSERT INTO t SELECT g, (g * 7919) % 1000 \
             FROM generate_series(1, {n}) AS g; ANALYZE t;"
        ),
        Db::Lite(_) => format!(
            "DELETE FROM t; WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s \
             WHERE g < {n}) INSERT INTO t SELECT g, (g * 7919) % 1000 FROM s; ANALYZE;"
        ),
    };
    db.batch(&sql)
}

/// Column names in query order, and the rows.
type Table = (Vec<String>, Vec<serde_json::Map<String, serde_json::Value>>);

#[derive(Serialize)]
struct Point {
    rows: u64,
    window: Summary,
    window_ns: f64,
    window_server_ns: Option<f64>,
    self_join: Option<Summary>,
    self_join_ns: Option<f64>,
    self_join_server_ns: Option<f64>,
    /// self-join median / window median, where both ran.
    ratio: Option<f64>,
}

/// Times `sql` `reps` times (after one untimed run when `warm`), checking that
/// every run returns `n` rows and the same checksum.
fn time_query(db: &mut Db, sql: &str, n: u64, reps: usize) -> Result<(Summary, i64), BoxError> {
    let mut samples = Vec::with_capacity(reps);
    let mut checksum = None;
    for _ in 0..reps {
        let t0 = Instant::now();
        let (rows, sum) = db.running(sql)?;
        samples.push(t0.elapsed().as_nanos() as f64);
        if rows as u64 != n || checksum.is_some_and(|c| c != sum) {
            return Err(format!("unexpected result: {rows} rows, checksum {sum}").into());
        }
        checksum = Some(sum);
    }
    Ok((Summary::from_ns(samples), checksum.unwrap_or(0)))
}

fn open() -> Result<Db, BoxError> {
    let forced = std::env::var("WINDOW_ENGINE").unwrap_or_default();
    if forced == "sqlite" {
        return Db::sqlite();
    }
    let Some(bin) = pg::find_bin() else {
        if forced == "postgres" {
            return Err("WINDOW_ENGINE=postgres but no initdb/pg_ctl found".into());
        }
        return Db::sqlite();
    };
    // A port can be taken between choosing it and binding it: try a few times.
    let mut last = None;
    for _ in 0..3 {
        match pg::Cluster::start(&bin) {
            Ok(cluster) => return Db::postgres(cluster),
            Err(e) => last = Some(e),
        }
    }
    Err(last.expect("an error"))
}

fn main() -> Result<(), BoxError> {
    let quick = harness::quick();
    let (window_reps, self_reps) = if quick { (3, 2) } else { (9, 5) };
    let mut db = open()?;
    let engine = db.engine();
    let version = db.version()?;

    db.batch(SCORES)?;
    db.batch(DAILY)?;
    let ranks = db.rows(RANKS)?;
    let running = db.rows(RUNNING)?;

    // ANCHOR: sweep
    db.batch("CREATE TABLE t (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL)")?;
    let mut sweep = Vec::new();
    let mut self_join_on = true;
    let mut plans = (String::new(), String::new());
    for &n in &SIZES {
        fill(&mut db, n)?;
        db.running(WINDOW_SQL)?; // warm-up: caches, plan
        let (window, sum) = time_query(&mut db, WINDOW_SQL, n, window_reps)?;
        let window_server = db.server_time(WINDOW_SQL)?;
        let (mut self_join, mut self_join_server) = (None, None);
        if self_join_on {
            // One run first: if it is already slow, it is the only sample.
            let (first, check) = time_query(&mut db, SELF_JOIN_SQL, n, 1)?;
            if check != sum {
                return Err(format!("self-join and window disagree at {n} rows").into());
            }
            let s = if first.median > 0.25e9 {
                first
            } else {
                time_query(&mut db, SELF_JOIN_SQL, n, self_reps)?.0
            };
            self_join_server = db.server_time(SELF_JOIN_SQL)?;
            if let (Some(w), Some(sj)) = (&window_server, &self_join_server) {
                plans = (w.1.clone(), sj.1.clone());
            }
            // Quadratic: doubling the rows quadruples the time.
            self_join_on = s.median * 4.0 <= SELF_JOIN_BUDGET_NS;
            self_join = Some(s);
        }
        // ANCHOR_END: sweep
        sweep.push(Point {
            rows: n,
            window_ns: window.median,
            window_server_ns: window_server.map(|s| s.0),
            ratio: self_join.as_ref().map(|s| s.median / window.median),
            self_join_ns: self_join.as_ref().map(|s| s.median),
            self_join_server_ns: self_join_server.map(|s| s.0),
            self_join,
            window,
        });
    }

    let both: Vec<&Point> = sweep.iter().filter(|p| p.self_join.is_some()).collect();
    let last_both = *both.last().expect("self-join ran at least once");
    let last = &sweep[sweep.len() - 1];
    let stop_rows = sweep.iter().find(|p| p.self_join.is_none()).map(|p| p.rows);

    print_report(engine, &version, &ranks, &running, &sweep);

    let mut res = harness::Results::new();
    res.set("engine", engine);
    res.set("engine_version", &version);
    res.set("engine_label", format!("{engine} {version}"));
    res.set("server_side", matches!(db, Db::Pg { .. }));
    res.set("ranks", &ranks.1);
    res.set("ranks_count", ranks.1.len());
    res.set("running", &running.1);
    res.set("sweep", &sweep);
    res.set("sizes_min", SIZES[0]);
    res.set("sizes_max", SIZES[SIZES.len() - 1]);
    res.set("self_join_budget_ns", SELF_JOIN_BUDGET_NS);
    res.set("self_join_max_rows", last_both.rows);
    res.set("self_join_stop_rows", stop_rows);
    res.set("at_self_max.rows", last_both.rows);
    res.set("at_self_max.window", &last_both.window);
    res.set("at_self_max.self_join", &last_both.self_join);
    res.set("at_self_max.window_server_ns", last_both.window_server_ns);
    res.set(
        "at_self_max.self_join_server_ns",
        last_both.self_join_server_ns,
    );
    res.set("at_self_max.ratio", last_both.ratio);
    // Growth exponent k in time ~ rows^k, fitted on log-log axes: 1 is linear, 2 quadratic.
    let self_pts: Vec<(f64, f64)> = both
        .iter()
        .map(|p| (p.rows as f64, p.self_join_ns.unwrap_or(0.0)))
        .collect();
    let window_pts: Vec<(f64, f64)> = sweep
        .iter()
        .filter(|p| p.rows >= WINDOW_FIT_FROM)
        .map(|p| (p.rows as f64, p.window.median))
        .collect();
    let (self_k, window_k) = (exponent(&self_pts), exponent(&window_pts));
    res.set("self_join_exponent", self_k);
    res.set("window_exponent", window_k);
    res.set("self_join_doubling", 2f64.powf(self_k));
    // How much slower the subquery gets when the table is ten times larger.
    res.set("self_join_tenfold", 10f64.powf(self_k));
    res.set("window_doubling", 2f64.powf(window_k));
    res.set("window_fit_from", WINDOW_FIT_FROM);
    res.set("window_max", &last.window);
    res.set("window_max_server_ns", last.window_server_ns);
    res.set(
        "window_max_per_row_ns",
        last.window.median / last.rows as f64,
    );
    res.set("plans.window", &plans.0);
    res.set("plans.self_join", &plans.1);
    res.write();
    Ok(())
}

/// Least-squares slope of ln(time) against ln(rows).
fn exponent(points: &[(f64, f64)]) -> f64 {
    if points.len() < 2 {
        return 0.0;
    }
    let xy: Vec<(f64, f64)> = points.iter().map(|&(x, y)| (x.ln(), y.ln())).collect();
    let n = xy.len() as f64;
    let (mx, my) = (
        xy.iter().map(|p| p.0).sum::<f64>() / n,
        xy.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let cov: f64 = xy.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let var: f64 = xy.iter().map(|p| (p.0 - mx).powi(2)).sum();
    cov / var
}

fn fmt_ns(ns: f64) -> String {
    match ns {
        n if n >= 1e9 => format!("{:.2} s", n / 1e9),
        n if n >= 1e6 => format!("{:.1} ms", n / 1e6),
        n if n >= 1e3 => format!("{:.1} µs", n / 1e3),
        n => format!("{n:.0} ns"),
    }
}

fn print_report(engine: &str, version: &str, ranks: &Table, running: &Table, sweep: &[Point]) {
    let cell = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => "NULL".into(),
        other => other.to_string(),
    };
    let table = |(cols, rows): &Table| {
        let head: Vec<String> = cols.iter().map(|k| format!("{k:>14}")).collect();
        println!("{}", head.join(""));
        for r in rows {
            let line: Vec<String> = cols
                .iter()
                .map(|c| format!("{:>14}", cell(&r[c])))
                .collect();
            println!("{}", line.join(""));
        }
    };
    println!("engine: {engine} {version}\n");
    table(ranks);
    println!();
    table(running);
    println!(
        "\nrunning total over the whole table (client time, median; server = EXPLAIN ANALYZE)"
    );
    println!(
        "{:>8} {:>11} {:>11} {:>11} {:>11} {:>9}",
        "rows", "window", "server", "self-join", "server", "ratio"
    );
    let opt = |v: Option<f64>| v.map(fmt_ns).unwrap_or_else(|| "-".into());
    for p in sweep {
        println!(
            "{:>8} {:>11} {:>11} {:>11} {:>11} {:>9}",
            p.rows,
            fmt_ns(p.window.median),
            opt(p.window_server_ns),
            opt(p.self_join_ns),
            opt(p.self_join_server_ns),
            p.ratio
                .map(|r| format!("{r:.0}x"))
                .unwrap_or_else(|| "-".into())
        );
    }
}

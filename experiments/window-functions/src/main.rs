//! Window functions vs a correlated subquery: ROW_NUMBER / RANK / DENSE_RANK with ties,
//! a running total with LAG, and what the correlated-subquery version of the running total
//! costs as the table grows. Runs on PostgreSQL when installed, on SQLite otherwise.

mod db;
mod pg;
mod report;

use std::time::Instant;

use db::Db;
use harness::Summary;
use pg::BoxError;
use serde::Serialize;

/// Table sizes of the sweep (rows): the window function runs at all of them.
const SIZES: [u64; 10] = [
    250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000,
];
/// The correlated subquery runs at the sizes up to this one, on every machine (at 4,000
/// rows it already reads about eight million rows per query).
const SUBQUERY_MAX: u64 = 4_000;
/// Growth is fitted from these sizes up, where each query's own cost dominates its fixed
/// costs: the window function from 8,000 rows, the subquery from 1,000.
const WINDOW_FIT_FROM: u64 = 8_000;
const SUBQUERY_FIT_FROM: u64 = 1_000;
/// Client runs, each followed by an EXPLAIN ANALYZE run, at the largest size of each query
/// (subquery, window function), to compare the client's time with the server's.
const EXPLAIN_REPS: (usize, usize) = (4, 7);

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
const SUBQUERY_SQL: &str = "
SELECT a.id, (SELECT CAST(SUM(b.amount) AS BIGINT) FROM t AS b WHERE b.id <= a.id) AS running
FROM t AS a ORDER BY a.id";
// ANCHOR_END: bench_sql

/// Creates the table `t_<n>` of `n` rows of deterministic amounts (0..999), `id` its
/// primary key.
fn create(db: &mut Db, n: u64) -> Result<(), BoxError> {
    let rows = match db {
        Db::Pg { .. } => format!("SELECT g, (g * 7919) % 1000 FROM generate_series(1, {n}) AS g"),
        Db::Lite(_) => format!(
            "WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < {n}) \
             SELECT g, (g * 7919) % 1000 FROM s"
        ),
    };
    db.batch(&format!(
        "CREATE TABLE t_{n} (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL); \
         INSERT INTO t_{n} {rows}; ANALYZE t_{n};"
    ))
}

/// `sql` (written against `t`) on the table of `n` rows.
fn on(sql: &str, n: u64) -> String {
    sql.replace("FROM t ", &format!("FROM t_{n} "))
}

/// Column names in query order, and the rows.
type Table = (Vec<String>, Vec<serde_json::Map<String, serde_json::Value>>);

/// One table size: the client's times and, on PostgreSQL, the server's (EXPLAIN ANALYZE).
#[derive(Serialize)]
pub struct Point {
    rows: u64,
    window: Summary,
    window_server_ns: Option<f64>,
    subquery: Option<Summary>,
    subquery_server_ns: Option<f64>,
    /// The two medians again, for the chart (none where the subquery did not run).
    window_ns: f64,
    subquery_ns: Option<f64>,
}

/// One timed run of `sql` on the table of `n` rows, checked: `n` rows, and the same
/// checksum as every other run on that table (`checksum`, set by the first).
fn time_once(db: &mut Db, sql: &str, n: u64, checksum: &mut Option<i64>) -> Result<f64, BoxError> {
    let t0 = Instant::now();
    let (rows, sum) = db.running(sql)?;
    let ns = t0.elapsed().as_nanos() as f64;
    if rows as u64 != n || *checksum.get_or_insert(sum) != sum {
        return Err(format!("unexpected result on {n} rows: {rows} rows, checksum {sum}").into());
    }
    Ok(ns)
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

/// The plans of both queries at the last size they ran at: their node types.
#[derive(Default)]
pub struct Plans {
    window: String,
    subquery: String,
}

/// Both queries at every size (the subquery up to `SUBQUERY_MAX` rows), measured in rounds
/// that visit every size, with the server's own time at each.
fn sweep(db: &mut Db, plans: &mut Plans, reps: (usize, usize)) -> Result<Vec<Point>, BoxError> {
    let (window_reps, subquery_reps) = reps;
    let k = SIZES.len();
    let (mut window, mut subquery) = (vec![Vec::new(); k], vec![Vec::new(); k]);
    let mut sums: Vec<Option<i64>> = vec![None; k]; // both queries must agree on each table
    for &n in &SIZES {
        create(db, n)?;
    }
    // ANCHOR: sweep
    // Round 0 is untimed (caches, plans). Each round visits every size, so a change in the
    // machine's load touches every size alike; the same sizes on every machine. The window
    // function's pass starts with an untimed run, after the previous round's subqueries.
    for round in 0..=window_reps.max(subquery_reps) {
        if round <= window_reps {
            db.running(&on(WINDOW_SQL, SIZES[0]))?;
            for (i, &n) in SIZES.iter().enumerate() {
                let t = time_once(db, &on(WINDOW_SQL, n), n, &mut sums[i])?;
                window[i].extend((round > 0).then_some(t));
            }
        }
        for (i, &n) in SIZES.iter().enumerate() {
            if n <= SUBQUERY_MAX && round <= subquery_reps {
                let t = time_once(db, &on(SUBQUERY_SQL, n), n, &mut sums[i])?;
                subquery[i].extend((round > 0).then_some(t));
            }
        }
    }
    // ANCHOR_END: sweep
    let mut points = Vec::new();
    for (i, &n) in SIZES.iter().enumerate() {
        let window_server = db.server_time(&on(WINDOW_SQL, n))?;
        let subquery_server = match n <= SUBQUERY_MAX {
            true => db.server_time(&on(SUBQUERY_SQL, n))?,
            false => None,
        };
        if let Some((_, plan)) = &window_server {
            plans.window = plan.clone();
        }
        if let Some((_, plan)) = &subquery_server {
            plans.subquery = plan.clone();
        }
        let window = Summary::from_ns(std::mem::take(&mut window[i]));
        let subquery =
            (n <= SUBQUERY_MAX).then(|| Summary::from_ns(std::mem::take(&mut subquery[i])));
        points.push(Point {
            rows: n,
            window_ns: window.median,
            subquery_ns: subquery.as_ref().map(|s| s.median),
            window_server_ns: window_server.map(|s| s.0),
            subquery_server_ns: subquery_server.map(|s| s.0),
            subquery,
            window,
        });
    }
    Ok(points)
}

/// The client's time and the server's own (EXPLAIN ANALYZE) for `sql` on the table of `n`
/// rows, measured in turn, `reps` pairs: (client, server median). None on SQLite.
fn client_and_server(
    db: &mut Db,
    sql: &str,
    n: u64,
    reps: usize,
) -> Result<Option<(Summary, f64)>, BoxError> {
    let sql = on(sql, n);
    let (mut client, mut server) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        let t0 = Instant::now();
        db.running(&sql)?;
        client.push(t0.elapsed().as_nanos() as f64);
        match db.server_time(&sql)? {
            Some((ns, _)) => server.push(ns),
            None => return Ok(None),
        }
    }
    let server = Summary::from_ns(server).median;
    Ok(Some((Summary::from_ns(client), server)))
}

fn main() -> Result<(), BoxError> {
    let mut db = open()?;
    let engine = db.engine();
    let version = db.version()?;
    db.batch(SCORES)?;
    db.batch(DAILY)?;
    let ranks = db.rows(RANKS)?;
    let running = db.rows(RUNNING)?;
    let mut plans = Plans::default();
    let reps = harness::pick((9, 5), (3, 2)); // timed runs of each query at each size
    let points = sweep(&mut db, &mut plans, reps)?;
    // Client and server, in turn, at the largest size of each query.
    let (sub_reps, win_reps) = harness::pick(EXPLAIN_REPS, (1, 2));
    let largest = SIZES[SIZES.len() - 1];
    let servers = (
        client_and_server(&mut db, SUBQUERY_SQL, SUBQUERY_MAX, sub_reps)?,
        client_and_server(&mut db, WINDOW_SQL, largest, win_reps)?,
    );

    let mut res = harness::Results::new();
    res.set("engine", engine);
    res.set("engine_version", &version);
    res.set("engine_label", format!("{engine} {version}"));
    res.set("server_side", matches!(db, Db::Pg { .. }));
    res.set("ranks", &ranks.1);
    res.set("ranks_count", ranks.1.len());
    res.set("running", &running.1);
    res.input("window_reps", reps.0);
    res.input("subquery_reps", reps.1);
    res.input("explain_reps.subquery", sub_reps);
    res.input("explain_reps.window", win_reps);
    res.set("plans.window", &plans.window);
    res.set("plans.subquery", &plans.subquery);
    // 1 when the subquery's plan reads `t` through its primary key's index.
    res.set(
        "plans.subquery_index",
        u8::from(plans.subquery.contains("Index")),
    );
    report::record(&mut res, &points, servers);
    report::tables(&mut res, &points);
    res.write();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_queries_run_on_the_table_of_the_size_asked() {
        for sql in [WINDOW_SQL, SUBQUERY_SQL] {
            let q = on(sql, 4000);
            assert!(!q.contains("FROM t "), "{q}");
            assert!(q.contains("FROM t_4000 "), "{q}");
        }
        assert_eq!(on(SUBQUERY_SQL, 8).matches("FROM t_8 ").count(), 2);
    }
}

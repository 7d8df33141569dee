//! What the window-functions experiment reports about the sweep: each size under its key,
//! the growth fitted and measured, server against client at the largest sizes, and the
//! sweep's output table.

use harness::{Results, Summary};

/// A query's client time and server median, measured in turn (None on SQLite).
type Served = Option<(Summary, f64)>;
use harness::declare::{Cell, Label, Table, text, value, value_as};

use crate::{Point, SIZES, SUBQUERY_FIT_FROM, SUBQUERY_MAX, WINDOW_FIT_FROM};

/// Least-squares slope of ln(time) against ln(rows): 1 is linear, 2 quadratic.
pub fn exponent(points: &[(f64, f64)]) -> f64 {
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

fn point(points: &[Point], rows: u64) -> &Point {
    points
        .iter()
        .find(|p| p.rows == rows)
        .expect("a size of the sweep")
}

/// The sweep under `sweep` (for the chart) and `points.<rows>`, the sizes, the growth of
/// both queries, and client against server at the largest size of each (`servers`: the
/// subquery's and the window function's client times and EXPLAIN ANALYZE medians,
/// measured in turn; None on SQLite).
pub fn record(res: &mut Results, points: &[Point], servers: (Served, Served)) {
    let largest = SIZES[SIZES.len() - 1];
    res.input("sizes_min", SIZES[0]);
    res.input("sizes_max", largest);
    res.input("subquery_max_rows", SUBQUERY_MAX);
    res.input("window_fit_from", WINDOW_FIT_FROM);
    res.input("subquery_fit_from", SUBQUERY_FIT_FROM);
    res.set("sweep", points);
    for p in points {
        let key = format!("points.{}", p.rows);
        res.set(&key, p);
        if p.subquery.is_some() {
            res.ratio(
                &format!("{key}.ratio"),
                &format!("{key}.subquery"),
                &format!("{key}.window"),
            );
        }
    }
    let fit = |from: u64, to: u64, f: fn(&Point) -> Option<f64>| -> f64 {
        let pts: Vec<(f64, f64)> = points
            .iter()
            .filter(|p| p.rows >= from && p.rows <= to)
            .filter_map(|p| f(p).map(|t| (p.rows as f64, t)))
            .collect();
        exponent(&pts)
    };
    let subquery_k = fit(SUBQUERY_FIT_FROM, SUBQUERY_MAX, |p| {
        p.subquery.as_ref().map(|s| s.median)
    });
    let window_k = fit(WINDOW_FIT_FROM, largest, |p| Some(p.window.median));
    res.set("subquery_exponent", subquery_k);
    res.set("window_exponent", window_k);
    res.set("subquery_doubling", 2f64.powf(subquery_k));
    res.set("window_doubling", 2f64.powf(window_k));
    // Measured over the fitted ranges, not extrapolated.
    let (sf, sl) = (
        format!("points.{SUBQUERY_FIT_FROM}"),
        format!("points.{SUBQUERY_MAX}"),
    );
    res.ratio(
        "growth.subquery",
        &format!("{sl}.subquery"),
        &format!("{sf}.subquery"),
    );
    let (wf, wl) = (
        format!("points.{WINDOW_FIT_FROM}"),
        format!("points.{largest}"),
    );
    res.ratio(
        "growth.window",
        &format!("{wl}.window"),
        &format!("{wf}.window"),
    );
    // The largest size the subquery ran at.
    res.set("largest", point(points, SUBQUERY_MAX));
    res.ratio("largest.ratio", "largest.subquery", "largest.window");
    // How much larger that ratio is than at the subquery's first fitted size, run by run.
    res.ratio("ratio_growth", "largest.ratio", &format!("{sf}.ratio"));
    // Client against server at the largest size of each query.
    let (subquery_server, window_server) = servers;
    for (key, served) in [("subquery", subquery_server), ("window", window_server)] {
        if let Some((client, server_ns)) = served {
            let k = |f: &str| format!("server_check.{key}.{f}");
            res.set(&k("client"), &client);
            res.set(&k("server_ns"), server_ns);
            res.share(&k("server_share"), &k("server_ns"), &k("client"));
        }
    }
}

/// The experiment's output: the sweep, client and server time by size.
pub fn tables(res: &mut Results, points: &[Point]) {
    let server = points.iter().any(|p| p.window_server_ns.is_some());
    let mut columns = vec![
        Label::new("Số dòng", "Rows"),
        Label::new("Window, máy khách", "Window, client"),
        Label::new("Window, máy chủ", "Window, server"),
        Label::new("Subquery, máy khách", "Subquery, client"),
        Label::new("Subquery, máy chủ", "Subquery, server"),
        Label::new("Subquery / window", "Subquery / window"),
    ];
    if !server {
        columns.retain(|c| !c.en.ends_with("server"));
    }
    let mut t = Table::new(columns).titled(Label::new(
        "Thời gian theo kích thước bảng: máy khách (trung vị) và máy chủ (EXPLAIN ANALYZE)",
        "Time by table size: client (median) and server (EXPLAIN ANALYZE)",
    ));
    let none = || text("—", "—");
    for p in points {
        let k = |f: &str| format!("points.{}.{f}", p.rows);
        let mut row: Vec<(bool, Cell)> = vec![
            (false, value_as(k("rows"), "int")),
            (false, value(k("window"))),
            (true, value_as(k("window_server_ns"), "duration")),
        ];
        if p.subquery.is_some() {
            row.push((false, value(k("subquery"))));
            row.push((true, value_as(k("subquery_server_ns"), "duration")));
            row.push((false, value(k("ratio"))));
        } else {
            row.extend([(false, none()), (true, none()), (false, none())]);
        }
        t.row(
            row.into_iter()
                .filter(|(s, _)| server || !s)
                .map(|(_, c)| c),
        );
    }
    res.table(t);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exponent_of_a_power_law_is_its_slope_on_log_log_axes() {
        let square: Vec<(f64, f64)> = [1e3, 2e3, 4e3].iter().map(|&n| (n, 3.0 * n * n)).collect();
        assert!((exponent(&square) - 2.0).abs() < 1e-9);
        let line: Vec<(f64, f64)> = [8e3, 16e3, 128e3].iter().map(|&n| (n, 5.0 * n)).collect();
        assert!((exponent(&line) - 1.0).abs() < 1e-9);
        assert_eq!(exponent(&square[..1]), 0.0, "one point has no slope");
    }
}

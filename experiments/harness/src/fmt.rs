//! Formatting helpers for an experiment's stdout report: durations, sizes,
//! and a small aligned text table.

use std::fmt::{self, Display};

/// A duration given in ns, with 3 significant digits and a fitting unit:
/// `"812 ns"`, `"1.23 µs"`, `"45.6 ms"`, `"2.50 s"`.
pub fn duration(ns: f64) -> String {
    let (v, unit) = if ns.abs() < 1e3 {
        (ns, "ns")
    } else if ns.abs() < 1e6 {
        (ns / 1e3, "µs")
    } else if ns.abs() < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    format!("{} {unit}", sig3(v))
}

/// A byte count, 1 KB = 1000 B: `"412 B"`, `"1.21 KB"`, `"3.40 MB"`.
pub fn bytes(n: f64) -> String {
    if n.abs() < 1000.0 {
        return format!("{} B", n.round());
    }
    let (v, unit) = if n.abs() < 1e6 {
        (n / 1e3, "KB")
    } else if n.abs() < 1e9 {
        (n / 1e6, "MB")
    } else {
        (n / 1e9, "GB")
    };
    format!("{} {unit}", sig3(v))
}

/// A number with 3 significant digits (no exponent for usual magnitudes).
pub fn sig3(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let digits = v.abs().log10().floor() as i32 + 1;
    let decimals = (3 - digits).max(0) as usize;
    format!("{v:.decimals$}")
}

/// A plain text table: the first column left-aligned, the others
/// right-aligned, columns separated by two spaces, a rule under the header.
///
/// ```
/// let mut t = harness::fmt::Table::new(["format", "bytes"]);
/// t.row(["json", "412"]);
/// print!("{t}");
/// ```
#[derive(Debug, Clone, Default)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new<S: ToString>(header: impl IntoIterator<Item = S>) -> Table {
        Table {
            header: header.into_iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row<S: ToString>(&mut self, cells: impl IntoIterator<Item = S>) -> &mut Table {
        self.rows
            .push(cells.into_iter().map(|s| s.to_string()).collect());
        self
    }
}

impl Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ncols = self
            .rows
            .iter()
            .map(Vec::len)
            .chain([self.header.len()])
            .max()
            .unwrap_or(0);
        let mut widths = vec![0usize; ncols];
        for r in self.rows.iter().chain([&self.header]) {
            for (i, c) in r.iter().enumerate() {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
        let line = |f: &mut fmt::Formatter<'_>, r: &[String]| -> fmt::Result {
            let mut out = String::new();
            for (i, w) in widths.iter().enumerate() {
                let c = r.get(i).map(String::as_str).unwrap_or("");
                let pad = w - c.chars().count();
                if i > 0 {
                    out.push_str("  ");
                }
                if i == 0 {
                    out.push_str(c);
                    out.push_str(&" ".repeat(pad));
                } else {
                    out.push_str(&" ".repeat(pad));
                    out.push_str(c);
                }
            }
            writeln!(f, "{}", out.trim_end())
        };
        line(f, &self.header)?;
        let total: usize = widths.iter().sum::<usize>() + 2 * ncols.saturating_sub(1);
        writeln!(f, "{}", "-".repeat(total))?;
        for r in &self.rows {
            line(f, r)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(duration(812.0), "812 ns");
        assert_eq!(duration(1234.0), "1.23 µs");
        assert_eq!(duration(45_600_000.0), "45.6 ms");
        assert_eq!(duration(2.5e9), "2.50 s");
        assert_eq!(duration(4.567), "4.57 ns");
        assert_eq!(bytes(412.0), "412 B");
        assert_eq!(bytes(1210.0), "1.21 KB");
        assert_eq!(bytes(3_400_000.0), "3.40 MB");
    }

    #[test]
    fn table_aligns() {
        let mut t = Table::new(["format", "bytes"]);
        t.row(["json", "412"]).row(["protobuf", "88"]);
        assert_eq!(
            t.to_string(),
            "format    bytes\n---------------\njson        412\nprotobuf     88\n"
        );
    }
}

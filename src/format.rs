//! Numbers written the page's language's way: decimal sign and digit grouping per language,
//! integers in full, other numbers to 3 significant digits, and the filters articles use
//! (`fixed(N)`, `sig(N)`, `int`, `duration`, `bytes`, `percent`, `ratio`).

use crate::lang::{Lang, NumberMarks};

/// A formatting filter written after `|` in `{{ exp.path | filter }}` or in a table column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    /// Integers in full, other numbers to 3 significant digits.
    Auto,
    Fixed(u8),
    Sig(u8),
    Int,
    /// Input in nanoseconds: `391 µs`.
    Duration,
    /// Input in bytes: `1,21 KB` (1 KB = 1000 B).
    Bytes,
    /// Input a fraction: `0.61` → `61%`.
    Percent,
    /// `9,7×`.
    Ratio,
}

impl Filter {
    pub const NAMES: [&'static str; 8] = [
        "fixed(N)", "sig(N)", "int", "duration", "bytes", "percent", "ratio", "auto",
    ];

    /// Parses `fixed(2)`, `duration`, ….
    pub fn parse(s: &str) -> Result<Filter, String> {
        let s = s.trim();
        let (name, arg) = match s.split_once('(') {
            Some((n, rest)) => {
                let inner = rest
                    .strip_suffix(')')
                    .ok_or_else(|| format!("filter `{s}` lacks its closing `)`"))?;
                let n_arg: u8 = inner
                    .trim()
                    .parse()
                    .map_err(|_| format!("filter `{s}` needs a whole number of digits"))?;
                (n.trim(), Some(n_arg))
            }
            None => (s, None),
        };
        let filter = match (name, arg) {
            ("fixed", Some(n)) if n <= 12 => Filter::Fixed(n),
            ("sig", Some(n)) if (1..=15).contains(&n) => Filter::Sig(n),
            ("int", None) => Filter::Int,
            ("duration", None) => Filter::Duration,
            ("bytes", None) => Filter::Bytes,
            ("percent", None) => Filter::Percent,
            ("ratio", None) => Filter::Ratio,
            ("auto", None) => Filter::Auto,
            _ => {
                let names: Vec<&str> = Filter::NAMES
                    .iter()
                    .map(|n| n.trim_end_matches("(N)"))
                    .collect();
                let hint = crate::diag::closest(name, names)
                    .map(|c| format!(" (did you mean `{c}`?)"))
                    .unwrap_or_default();
                return Err(format!(
                    "unknown filter `{s}`{hint}; the filters are {}",
                    Filter::NAMES.join(", ")
                ));
            }
        };
        Ok(filter)
    }
}

/// Formats `x` (which was an integer in the JSON when `is_int`) with `filter` for `lang`.
pub fn number(x: f64, is_int: bool, filter: Filter, lang: &Lang) -> String {
    let marks = lang.number_marks();
    match filter {
        Filter::Auto if is_int => group(&format!("{x:.0}"), marks),
        Filter::Auto => sig(x, 3, marks),
        Filter::Fixed(n) => localize(&format!("{x:.*}", usize::from(n)), marks),
        Filter::Sig(n) => sig(x, n, marks),
        Filter::Int => group(&format!("{:.0}", x.round()), marks),
        Filter::Duration => duration(x, marks),
        Filter::Bytes => bytes(x, marks),
        Filter::Percent => format!("{}%", sig_max_decimals(x * 100.0, 3, 1, marks)),
        Filter::Ratio => format!("{}×", sig(x, 3, marks)),
    }
}

const NBSP: char = '\u{a0}';

fn duration(ns: f64, marks: NumberMarks) -> String {
    let (v, unit) = match ns.abs() {
        a if a < 1e3 => (ns, "ns"),
        a if a < 1e6 => (ns / 1e3, "µs"),
        a if a < 1e9 => (ns / 1e6, "ms"),
        _ => (ns / 1e9, "s"),
    };
    format!("{}{NBSP}{unit}", sig(v, 3, marks))
}

fn bytes(b: f64, marks: NumberMarks) -> String {
    if b.abs() < 1e3 {
        return format!("{}{NBSP}B", group(&format!("{:.0}", b.round()), marks));
    }
    let (v, unit) = match b.abs() {
        a if a < 1e6 => (b / 1e3, "KB"),
        a if a < 1e9 => (b / 1e6, "MB"),
        _ => (b / 1e9, "GB"),
    };
    format!("{}{NBSP}{unit}", sig(v, 3, marks))
}

/// `x` to `n` significant digits, trailing zeros dropped, grouped and localised.
fn sig(x: f64, n: u8, marks: NumberMarks) -> String {
    sig_max_decimals(x, n, 12, marks)
}

fn sig_max_decimals(x: f64, n: u8, max_decimals: i32, marks: NumberMarks) -> String {
    if x == 0.0 || !x.is_finite() {
        return localize(&format!("{x}"), marks);
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = (i32::from(n) - 1 - magnitude).clamp(0, max_decimals);
    let factor = 10f64.powi(i32::from(n) - 1 - magnitude);
    let rounded = if factor.is_finite() && decimals == 0 && magnitude >= i32::from(n) {
        (x * factor).round() / factor
    } else {
        x
    };
    let mut s = format!("{rounded:.*}", usize::try_from(decimals).unwrap_or(0));
    if s.contains('.') {
        s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    localize(&s, marks)
}

/// Swaps `.` for the language's decimal sign and groups the integer part.
fn localize(plain: &str, marks: NumberMarks) -> String {
    let (int, frac) = match plain.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (plain, None),
    };
    let mut out = group(int, marks);
    if let Some(f) = frac {
        out.push(marks.decimal);
        out.push_str(f);
    }
    out
}

/// Groups the digits of an integer string by thousands.
fn group(int: &str, marks: NumberMarks) -> String {
    let (sign, digits) = match int.strip_prefix('-') {
        Some(d) => ("-", d),
        None => ("", int),
    };
    if digits.len() <= 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return format!("{sign}{digits}");
    }
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(marks.group);
        }
        out.push(c);
    }
    format!("{sign}{out}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vi() -> Lang {
        Lang::parse("vi").unwrap()
    }
    fn en() -> Lang {
        Lang::parse("en").unwrap()
    }

    #[test]
    fn integers_in_full_with_grouping_per_language() {
        assert_eq!(number(1234567.0, true, Filter::Auto, &vi()), "1.234.567");
        assert_eq!(number(1234567.0, true, Filter::Auto, &en()), "1,234,567");
        assert_eq!(number(-1000.0, true, Filter::Auto, &vi()), "-1.000");
        assert_eq!(number(999.0, true, Filter::Auto, &en()), "999");
    }

    #[test]
    fn other_numbers_to_three_significant_digits() {
        assert_eq!(number(6.9712, false, Filter::Auto, &vi()), "6,97");
        assert_eq!(number(6.9712, false, Filter::Auto, &en()), "6.97");
        assert_eq!(number(0.000123456, false, Filter::Auto, &en()), "0.000123");
        assert_eq!(number(1234.5, false, Filter::Auto, &en()), "1,230");
        assert_eq!(number(2.0, false, Filter::Auto, &en()), "2");
    }

    #[test]
    fn fixed_keeps_its_decimals() {
        assert_eq!(number(6.9712, false, Filter::Fixed(2), &vi()), "6,97");
        assert_eq!(number(2.0, false, Filter::Fixed(1), &en()), "2.0");
        assert_eq!(
            number(12345.678, false, Filter::Fixed(1), &vi()),
            "12.345,7"
        );
    }

    #[test]
    fn durations_bytes_percent_ratio() {
        assert_eq!(
            number(391_234.0, false, Filter::Duration, &en()),
            "391\u{a0}µs"
        );
        assert_eq!(
            number(6_970_000.0, false, Filter::Duration, &vi()),
            "6,97\u{a0}ms"
        );
        assert_eq!(number(23.4, false, Filter::Duration, &en()), "23.4\u{a0}ns");
        assert_eq!(number(1.5e9, false, Filter::Duration, &en()), "1.5\u{a0}s");
        assert_eq!(number(1210.0, true, Filter::Bytes, &vi()), "1,21\u{a0}KB");
        assert_eq!(number(58.0, true, Filter::Bytes, &en()), "58\u{a0}B");
        assert_eq!(
            number(33_456_000.0, true, Filter::Bytes, &en()),
            "33.5\u{a0}MB"
        );
        assert_eq!(number(0.61, false, Filter::Percent, &en()), "61%");
        assert_eq!(number(0.6123, false, Filter::Percent, &vi()), "61,2%");
        assert_eq!(number(9.7, false, Filter::Ratio, &vi()), "9,7×");
        assert_eq!(number(9.73, false, Filter::Ratio, &en()), "9.73×");
    }

    #[test]
    fn int_rounds() {
        assert_eq!(number(1234.6, false, Filter::Int, &vi()), "1.235");
    }

    #[test]
    fn filters_parse_and_unknown_ones_suggest() {
        assert_eq!(Filter::parse("fixed(2)"), Ok(Filter::Fixed(2)));
        assert_eq!(Filter::parse(" duration "), Ok(Filter::Duration));
        let e = Filter::parse("duraton").unwrap_err();
        assert!(e.contains("did you mean `duration`"), "{e}");
        assert!(Filter::parse("fixed(x)").is_err());
    }
}

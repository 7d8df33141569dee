//! Numbers written the page's language's way: decimal sign and digit grouping per language,
//! integers in full (exactly, whatever their size: [`integer`]), other numbers to 3 significant
//! digits, and the filters articles use (`fixed(N)`, `sig(N)`, `int`, `duration`, `bytes`,
//! `percent`, `ratio`). Numbers too large or too small for digits (from 10^15, or a non-zero
//! value that would round to 0) are written `1,23 × 10¹⁵`; no number is written `-0`.

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

/// One filter an author can write after `|`: the one registry that parsing, the error's list,
/// its "did you mean" and the documentation's table (checked by a test) all read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FilterDoc {
    /// As written: `fixed(N)`, `duration`.
    pub name: &'static str,
    /// What it takes, in the docs' words.
    pub input: &'static str,
    /// An example in each language.
    pub vi: &'static str,
    pub en: &'static str,
}

/// Every filter, in the documentation's order.
pub const FILTERS: [FilterDoc; 8] = [
    FilterDoc {
        name: "fixed(N)",
        input: "number, N decimals (0 to 12)",
        vi: "`6,97`",
        en: "`6.97`",
    },
    FilterDoc {
        name: "sig(N)",
        input: "number, N significant digits (1 to 15)",
        vi: "`6,971`",
        en: "`6.971`",
    },
    FilterDoc {
        name: "int",
        input: "number, rounded",
        vi: "`1.235`",
        en: "`1,235`",
    },
    FilterDoc {
        name: "duration",
        input: "nanoseconds",
        vi: "`391 µs`",
        en: "`391 µs` (ns, µs, ms, s)",
    },
    FilterDoc {
        name: "bytes",
        input: "bytes",
        vi: "`1,21 KB`",
        en: "`1.21 KB` (1 KB = 1000 B; B, KB, MB, GB, TB, PB, EB: the largest that keeps 1 or more)",
    },
    FilterDoc {
        name: "percent",
        input: "fraction (0.61)",
        vi: "`61%`",
        en: "`61%`",
    },
    FilterDoc {
        name: "ratio",
        input: "number",
        vi: "`9,7×`",
        en: "`9.7×`",
    },
    FilterDoc {
        name: "code",
        input: "string or number, shown as code (no other filter with it)",
        vi: "`<code>`",
        en: "`<code>`",
    },
];

impl Filter {
    /// The names of every filter ([`FILTERS`]).
    pub fn names() -> Vec<&'static str> {
        FILTERS.iter().map(|f| f.name).collect()
    }

    /// Parses `fixed(2)`, `duration`, ….
    pub fn parse(s: &str) -> Result<Filter, String> {
        let s = s.trim();
        let (name, arg) = match s.split_once('(') {
            Some((n, rest)) => {
                let inner = rest
                    .strip_suffix(')')
                    .ok_or_else(|| format!("filter `{s}` lacks its closing `)`"))?;
                (n.trim(), Some(inner.trim()))
            }
            None => (s, None),
        };
        let plain = match name {
            "int" => Filter::Int,
            "duration" => Filter::Duration,
            "bytes" => Filter::Bytes,
            "percent" => Filter::Percent,
            "ratio" => Filter::Ratio,
            "fixed" | "sig" => {
                let Some(arg) = arg else {
                    return Err(format!("filter `{name}` needs a number: `{name}(2)`"));
                };
                return if name == "fixed" {
                    count(s, arg, 0..=12, "decimals").map(Filter::Fixed)
                } else {
                    count(s, arg, 1..=15, "significant digits").map(Filter::Sig)
                };
            }
            _ => return Err(unknown(s, name)),
        };
        match arg {
            None => Ok(plain),
            Some(_) => Err(format!("filter `{name}` takes no argument: write `{name}`")),
        }
    }
}

/// The `N` of `fixed(N)` or `sig(N)`, within `range`.
fn count(
    filter: &str,
    arg: &str,
    range: std::ops::RangeInclusive<u8>,
    what: &str,
) -> Result<u8, String> {
    match arg.parse::<u8>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "filter `{filter}`: the number of {what} must be a whole number from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

fn unknown(filter: &str, name: &str) -> String {
    if name == "percent_of" {
        return format!(
            "`{filter}` is not a filter: a share of another value is computed by the \
             experiment (add it to its results), then shown with `| percent`"
        );
    }
    if name == "code" {
        return format!("`{filter}`: `code` shows a value as code and takes no other filter");
    }
    let names: Vec<&str> = Filter::names()
        .into_iter()
        .map(|n| n.trim_end_matches("(N)"))
        .collect();
    let hint = crate::diag::closest(name, names)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default();
    format!(
        "unknown filter `{filter}`{hint}; the filters are {}",
        Filter::names().join(", ")
    )
}

/// Formats the integer `i` (exactly, however large) with `filter` for `lang`.
pub fn integer(i: i128, filter: Filter, lang: &Lang) -> String {
    let marks = lang.number_marks();
    match filter {
        Filter::Auto | Filter::Int => group(&i.to_string(), marks),
        Filter::Fixed(0) => group(&i.to_string(), marks),
        Filter::Fixed(n) => localize(&format!("{i}.{}", "0".repeat(n.into())), marks),
        _ => number(i as f64, true, filter, lang),
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

/// The byte units, each 1000 times the one before (the largest that keeps 1 or more is used).
const BYTE_UNITS: [&str; 7] = ["B", "KB", "MB", "GB", "TB", "PB", "EB"];

fn bytes(b: f64, marks: NumberMarks) -> String {
    if b.abs() < 1e3 {
        return format!("{}{NBSP}B", group(&format!("{:.0}", b.round()), marks));
    }
    let power = (1..BYTE_UNITS.len())
        .rev()
        .find(|&k| b.abs() >= 1e3f64.powi(k as i32))
        .unwrap_or(1);
    let v = b / 1e3f64.powi(power as i32);
    format!("{}{NBSP}{}", sig(v, 3, marks), BYTE_UNITS[power])
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
    // Past 10^15 digits would be noise (and 1e308 has 309 of them); below, a significant
    // figure that rounding to `max_decimals` would lose (significant-digit filters only).
    if magnitude >= 15 || (max_decimals >= 12 && magnitude < -max_decimals) {
        return scientific(x, n, marks);
    }
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

/// `x` as `m × 10ᵉ`, `m` to `n` significant digits.
fn scientific(x: f64, n: u8, marks: NumberMarks) -> String {
    let plain = format!("{:.*e}", usize::from(n.max(1) - 1), x);
    let (mantissa, exponent) = plain.split_once('e').unwrap_or((&plain, "0"));
    let mut mantissa = mantissa.to_string();
    if mantissa.contains('.') {
        mantissa = mantissa
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string();
    }
    let superscript: String = exponent
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹']
                [d.to_digit(10).unwrap_or(0) as usize],
        })
        .collect();
    format!("{}{NBSP}×{NBSP}10{superscript}", localize(&mantissa, marks))
}

/// `s` without its minus sign when every digit of it is 0: no `-0`, `-0,0` or `-0%`.
fn unsigned_zero(s: &str) -> &str {
    match s.strip_prefix('-') {
        Some(rest) if !rest.bytes().any(|b| matches!(b, b'1'..=b'9')) => rest,
        _ => s,
    }
}

/// Swaps `.` for the language's decimal sign and groups the integer part.
fn localize(plain: &str, marks: NumberMarks) -> String {
    let plain = unsigned_zero(plain);
    let (sign, plain) = match plain.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", plain),
    };
    let (int, frac) = match plain.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (plain, None),
    };
    let mut out = format!("{sign}{}", group(int, marks));
    if let Some(f) = frac {
        out.push(marks.decimal);
        out.push_str(f);
    }
    out
}

/// Groups the digits of an integer string by thousands.
fn group(int: &str, marks: NumberMarks) -> String {
    let int = unsigned_zero(int);
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

    #[test]
    fn the_filters_are_the_ones_the_documentation_lists() {
        let docs = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/authoring.md"
        ))
        .unwrap();
        let start = docs
            .find("| filter | input | vi | en |")
            .expect("the filter table");
        let rows: Vec<&str> = docs[start..]
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .collect();
        let expected: Vec<String> = FILTERS
            .iter()
            .map(|f| format!("| `{}` | {} | {} | {} |", f.name, f.input, f.vi, f.en))
            .collect();
        assert_eq!(rows, expected);
        // Each one parses (`code` is read before filters are), and an unknown one lists them.
        for f in FILTERS.iter().filter(|f| f.name != "code") {
            let written = f.name.replace("(N)", "(2)");
            assert!(Filter::parse(&written).is_ok(), "{written}");
        }
        let e = Filter::parse("durattion").unwrap_err();
        assert!(e.contains("(did you mean `duration`?)"), "{e}");
        assert!(
            e.ends_with(
                "the filters are fixed(N), sig(N), int, duration, bytes, percent, ratio, code"
            ),
            "{e}"
        );
        assert!(
            Filter::parse("auto").is_err(),
            "`auto` is no filter an author writes"
        );
    }

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

    #[test]
    fn filter_arguments_out_of_range_say_the_range() {
        assert_eq!(
            Filter::parse("fixed(100)").unwrap_err(),
            "filter `fixed(100)`: the number of decimals must be a whole number from 0 to 12"
        );
        assert_eq!(
            Filter::parse("sig(0)").unwrap_err(),
            "filter `sig(0)`: the number of significant digits must be a whole number from 1 to 15"
        );
        assert_eq!(
            Filter::parse("fixed(1000)").unwrap_err(),
            "filter `fixed(1000)`: the number of decimals must be a whole number from 0 to 12"
        );
        assert_eq!(
            Filter::parse("fixed").unwrap_err(),
            "filter `fixed` needs a number: `fixed(2)`"
        );
        assert_eq!(
            Filter::parse("int(2)").unwrap_err(),
            "filter `int` takes no argument: write `int`"
        );
        assert_eq!(
            Filter::parse("percent_of(other.path)").unwrap_err(),
            "`percent_of(other.path)` is not a filter: a share of another value is computed by \
             the experiment (add it to its results), then shown with `| percent`"
        );
    }

    #[test]
    fn integers_of_any_size_print_exactly() {
        assert_eq!(
            integer(u64::MAX.into(), Filter::Auto, &en()),
            "18,446,744,073,709,551,615"
        );
        assert_eq!(
            integer(i64::MIN.into(), Filter::Auto, &vi()),
            "-9.223.372.036.854.775.808"
        );
        assert_eq!(
            integer(u64::MAX.into(), Filter::Fixed(2), &vi()),
            "18.446.744.073.709.551.615,00"
        );
        assert_eq!(integer(1210, Filter::Bytes, &vi()), "1,21\u{a0}KB");
    }

    #[test]
    fn units_go_up_to_the_largest_and_huge_numbers_are_short() {
        assert_eq!(number(2.5e12, false, Filter::Bytes, &en()), "2.5\u{a0}TB");
        assert_eq!(number(3e18, false, Filter::Bytes, &en()), "3\u{a0}EB");
        let huge = number(1e308, false, Filter::Bytes, &vi());
        assert_eq!(huge, "1\u{a0}×\u{a0}10²⁹⁰\u{a0}EB");
        assert_eq!(
            number(1.234e300, false, Filter::Duration, &en()),
            "1.23\u{a0}×\u{a0}10²⁹¹\u{a0}s"
        );
        assert_eq!(
            number(-4.56e20, false, Filter::Auto, &vi()),
            "-4,56\u{a0}×\u{a0}10²⁰"
        );
        assert_eq!(
            number(1.5e-20, false, Filter::Auto, &en()),
            "1.5\u{a0}×\u{a0}10⁻²⁰"
        );
        assert_eq!(
            number(1e14, false, Filter::Auto, &en()),
            "100,000,000,000,000"
        );
    }

    #[test]
    fn no_negative_zero() {
        assert_eq!(number(-0.0001, false, Filter::Percent, &en()), "0%");
        assert_eq!(number(-0.0001, false, Filter::Fixed(1), &vi()), "0,0");
        assert_eq!(number(-0.4, false, Filter::Int, &en()), "0");
        assert_eq!(number(-0.0, false, Filter::Auto, &en()), "0");
        assert_eq!(number(-0.0, true, Filter::Auto, &en()), "0");
        assert_eq!(number(-1e-13, false, Filter::Fixed(2), &en()), "0.00");
        assert_eq!(number(-0.05, false, Filter::Fixed(1), &en()), "-0.1");
    }
}
